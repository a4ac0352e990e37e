module dlmp

go 1.26.8

require (
	github.com/pelletier/go-toml/v2 v2.4.3
	github.com/vmihailenco/msgpack/v5 v5.4.1
	github.com/yuin/gopher-lua v1.1.2
	golang.org/x/net v0.62.0
	golang.org/x/sys v0.50.0
)

require github.com/vmihailenco/tagparser/v2 v2.0.0 // indirect
