package gamemode

import (
	"embed"
	"io/fs"
)

//go:embed freeroam
var freeroam embed.FS

// Default is the default world, embedded in the binary: a small freeroam
// gamemode (freeroam/main.lua) and its map, for `dlmp serve` with no
// gamemode configured.
func Default() fs.FS {
	sub, err := fs.Sub(freeroam, "freeroam")
	if err != nil {
		panic(err) // the embedded folder exists: a build error otherwise
	}
	return sub
}
