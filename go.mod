module dlmp

go 1.26.8

require (
	github.com/pelletier/go-toml/v2 v2.4.3
	github.com/vmihailenco/msgpack/v5 v5.4.1
	github.com/xtaci/kcp-go/v5 v5.7.5
	github.com/yuin/gopher-lua v1.1.2
	golang.org/x/net v0.62.0
	golang.org/x/sys v0.50.0
)

require (
	github.com/juju/ratelimit v1.0.2 // indirect
	github.com/klauspost/cpuid/v2 v2.4.1 // indirect
	github.com/klauspost/reedsolomon v1.14.2 // indirect
	github.com/kr/pretty v0.3.1 // indirect
	github.com/pion/transport/v5 v5.1.4 // indirect
	github.com/pkg/errors v0.9.1 // indirect
	github.com/tjfoc/gmsm v1.4.1 // indirect
	github.com/vmihailenco/tagparser/v2 v2.0.0 // indirect
	golang.org/x/crypto v0.58.0 // indirect
)
