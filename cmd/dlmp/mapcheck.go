package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"dlmp/internal/mapfile"
	"dlmp/internal/wire"
)

func init() {
	register(command{"mapcheck", "load map files (MTA:SA .map, SA-MP lines) and report what they hold", mapcheck})
}

// progressMin is the file size from which mapcheck shows progress.
var progressMin int64 = 1 << 20

// mapcheck loads each file and prints what it holds and every problem,
// with its line. It exits 1 when a file cannot be loaded at all, 2 on a
// usage error; problems alone do not fail.
func mapcheck(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("mapcheck", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: dlmp mapcheck FILE...\n\n"+
			"Loads MTA:SA .map files and SA-MP script lines (CreateObject, CreateDynamicObject,\n"+
			"AddStaticPickup, CreatePickup, RemoveBuildingForPlayer) and prints, per file, the\n"+
			"counts of what loaded and every problem with its line. Exits 1 if a file could\n"+
			"not be loaded at all.")
	}
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return 2
	}
	status := 0
	for _, path := range fs.Args() {
		o := mapfile.Options{Name: path}
		if fi, err := os.Stat(path); err == nil && fi.Size() >= progressMin {
			o.Progress = progress(stderr, path)
		}
		m, err := mapfile.Load(path, o)
		if err != nil {
			fmt.Fprintf(stderr, "dlmp mapcheck: %v\n", err)
			status = 1
			continue
		}
		fmt.Fprintln(stdout, summary(path, m))
		for _, p := range m.Problems {
			if p.Note {
				fmt.Fprintf(stdout, "  note: %v\n", p)
			} else {
				fmt.Fprintf(stdout, "  %v\n", p)
			}
		}
	}
	return status
}

// progress returns a callback that prints every tenth of the file.
func progress(w io.Writer, path string) func(done, total int64) {
	next := int64(0)
	return func(done, total int64) {
		if pct := done * 100 / max(total, 1); pct >= next {
			fmt.Fprintf(w, "%s: %d%%\n", path, pct)
			next = pct/10*10 + 10
		}
	}
}

// summary is the one line of counts of a loaded map.
func summary(path string, m *mapfile.Map) string {
	var parts []string
	add := func(n int, what string) {
		if n > 0 {
			parts = append(parts, plural(n, what))
		}
	}
	samp := 0
	for _, o := range m.Objects {
		if wire.IsSAMPModel(o.Model) {
			samp++
		}
	}
	add(len(m.Objects), "object")
	if samp > 0 {
		parts[0] += fmt.Sprintf(" (%s)", plural(samp, "SA-MP model"))
	}
	add(len(m.Pickups), "pickup")
	add(len(m.Vehicles), "vehicle")
	add(len(m.Markers), "marker")
	add(len(m.Blips), "blip")
	add(len(m.Zones), "radar area")
	add(len(m.Removals), "removed building")
	if len(m.Elements) > 0 {
		tags := map[string]int{}
		for _, e := range m.Elements {
			tags[e.Tag]++
		}
		names := make([]string, 0, len(tags))
		for t := range tags {
			names = append(names, t)
		}
		sort.Strings(names)
		for i, t := range names {
			names[i] = fmt.Sprintf("%d %s", tags[t], t)
		}
		parts = append(parts, fmt.Sprintf("%s (%s)", plural(len(m.Elements), "other element"), strings.Join(names, ", ")))
	}
	if len(parts) == 0 {
		parts = append(parts, "nothing")
	}
	skipped, notes := 0, 0
	for _, p := range m.Problems {
		if p.Note {
			notes++
		} else {
			skipped++
		}
	}
	line := fmt.Sprintf("%s (%v): %s", path, m.Format, strings.Join(parts, ", "))
	if skipped > 0 {
		line += fmt.Sprintf("; %d skipped", skipped)
	}
	if notes > 0 {
		line += "; " + plural(notes, "note")
	}
	return line
}

// plural writes "1 object", "2 objects".
func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
