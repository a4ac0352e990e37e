// Package meta holds the repository's meta-tests: formatting, package
// comments and dependency rules, in the spirit of STYLE.md.
package meta

import (
	"go/format"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// goFiles returns every .go file of the repository, by directory.
func goFiles(t *testing.T) map[string][]string {
	t.Helper()
	dirs := map[string][]string{}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && path != "." || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".go") {
			dirs[filepath.Dir(path)] = append(dirs[filepath.Dir(path)], path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return dirs
}

func TestGofmt(t *testing.T) {
	for _, files := range goFiles(t) {
		for _, f := range files {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			out, err := format.Source(src)
			if err != nil {
				t.Errorf("%s: %v", f, err)
			} else if string(out) != string(src) {
				t.Errorf("%s is not gofmt-clean", f)
			}
		}
	}
}

// TestPackageComments: every package has exactly one package comment, in a
// non-test file.
func TestPackageComments(t *testing.T) {
	for dir, files := range goFiles(t) {
		var with []string
		nonTest := 0
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			nonTest++
			af, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ParseComments|parser.PackageClauseOnly)
			if err != nil {
				t.Fatal(err)
			}
			if af.Doc != nil {
				with = append(with, f)
			}
		}
		if nonTest == 0 {
			continue
		}
		if len(with) != 1 {
			sort.Strings(with)
			t.Errorf("package %s has %d package comments (%v), want 1", dir, len(with), with)
		}
	}
}

// imports returns the imports of the non-test files of dir.
func imports(t *testing.T, files []string) []string {
	var out []string
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, im := range af.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			out = append(out, p)
		}
	}
	return out
}

// TestDependencyRules: the wire package imports only the standard library;
// internal packages never import cmd/.
func TestDependencyRules(t *testing.T) {
	dirs := goFiles(t)
	for _, p := range imports(t, dirs[filepath.Join("internal", "wire")]) {
		if strings.Contains(strings.SplitN(p, "/", 2)[0], ".") || strings.HasPrefix(p, "dlmp") {
			t.Errorf("internal/wire imports %s: it may import only the standard library", p)
		}
	}
	if len(dirs[filepath.Join("internal", "wire")]) == 0 {
		t.Error("internal/wire not found")
	}
	for dir, files := range dirs {
		if !strings.HasPrefix(dir, "internal") && !strings.HasPrefix(dir, "client") {
			continue
		}
		for _, p := range imports(t, files) {
			if strings.HasPrefix(p, "dlmp/cmd") {
				t.Errorf("%s imports %s: libraries never import commands", dir, p)
			}
		}
	}
}
