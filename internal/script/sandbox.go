package script

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strings"

	lua "github.com/yuin/gopher-lua"
)

// MaxString bounds the strings string.rep may build, so one call cannot
// exhaust the server's memory.
const MaxString = 16 << 20

func bytesReader(b []byte) io.Reader { return bytes.NewReader(b) }

// openSandbox opens the safe libraries and replaces or removes the rest.
func (r *Runtime) openSandbox() {
	L := r.L
	for _, lib := range []struct {
		name string
		fn   lua.LGFunction
	}{
		{lua.LoadLibName, lua.OpenPackage}, // needed by require; its loaders are replaced below
		{lua.BaseLibName, lua.OpenBase},
		{lua.TabLibName, lua.OpenTable},
		{lua.StringLibName, lua.OpenString},
		{lua.MathLibName, lua.OpenMath},
		{lua.CoroutineLibName, lua.OpenCoroutine},
		{lua.OsLibName, lua.OpenOs},
	} {
		L.Push(L.NewFunction(lib.fn))
		L.Push(lua.LString(lib.name))
		L.Call(1, 0)
	}
	// base: no file access.
	for _, name := range []string{"dofile", "loadfile", "module"} {
		L.SetGlobal(name, lua.LNil)
	}
	// os: time functions only.
	osT := L.GetGlobal("os").(*lua.LTable)
	safeOS := L.NewTable()
	for _, name := range []string{"time", "clock", "date", "difftime"} {
		safeOS.RawSetString(name, osT.RawGetString(name))
	}
	L.SetGlobal("os", safeOS)
	// string.rep bounded.
	strT := L.GetGlobal("string").(*lua.LTable)
	strT.RawSetString("rep", L.NewFunction(strRep))
	// print goes to the log.
	L.SetGlobal("print", L.NewFunction(r.print))
	// package: only our loader, reading from the gamemode's folder.
	pkg := L.GetGlobal("package").(*lua.LTable)
	loaders := L.NewTable()
	loaders.Append(pkg.RawGetString("loaders").(*lua.LTable).RawGetInt(1)) // the preload loader
	loaders.Append(L.NewFunction(r.loadModule))
	pkg.RawSetString("loaders", loaders)
	L.SetField(L.Get(lua.RegistryIndex), "_LOADERS", loaders) // where require looks
	pkg.RawSetString("path", lua.LString("?.lua (inside the gamemode folder)"))
	pkg.RawSetString("cpath", lua.LString(""))
	for _, name := range []string{"loadlib", "seeall"} {
		pkg.RawSetString(name, lua.LNil)
	}
}

func strRep(L *lua.LState) int {
	s := L.CheckString(1)
	n := L.CheckInt(2)
	if n <= 0 || s == "" {
		L.Push(lua.LString(""))
		return 1
	}
	if len(s) > MaxString/n {
		L.ArgError(2, fmt.Sprintf("string.rep would build %d×%d bytes, above the %d-byte limit", len(s), n, MaxString))
	}
	L.Push(lua.LString(strings.Repeat(s, n)))
	return 1
}

// print logs its arguments, tab-separated, as Lua's print would write them.
func (r *Runtime) print(L *lua.LState) int {
	parts := make([]string, L.GetTop())
	for i := range parts {
		parts[i] = L.ToStringMeta(L.Get(i + 1)).String()
	}
	r.log.Info(strings.Join(parts, "\t"))
	return 0
}

// loadModule is the package loader: module "a.b" is a/b.lua inside the
// gamemode's folder, and nothing outside it.
func (r *Runtime) loadModule(L *lua.LState) int {
	name := L.CheckString(1)
	file := strings.ReplaceAll(name, ".", "/") + ".lua"
	if !fs.ValidPath(file) || strings.Contains(name, "/") || strings.Contains(name, "\\") {
		L.Push(lua.LString(fmt.Sprintf("\n\tmodule %q: not a module name inside the gamemode folder", name)))
		return 1
	}
	src, err := fs.ReadFile(r.fsys, file)
	if err != nil {
		L.Push(lua.LString(fmt.Sprintf("\n\tno file %q in the gamemode folder", path.Clean(file))))
		return 1
	}
	fn, err := L.Load(bytesReader(src), file)
	if err != nil {
		L.RaiseError("%s", err.Error())
	}
	L.Push(fn)
	return 1
}
