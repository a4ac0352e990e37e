package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const maps = "../../internal/mapfile/testdata/"

func runMapcheck(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(append([]string{"mapcheck"}, args...), strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

func TestMapcheckRealMaps(t *testing.T) {
	code, out, errs := runMapcheck(t, maps+"port69.map", maps+"lv-houses.pwn.txt", maps+"death-rally-final.map")
	if code != 0 {
		t.Fatalf("exit %d, want 0; stderr:\n%s", code, errs)
	}
	want := maps + "port69.map (mta): 232 objects, 176 pickups, 87 vehicles, 100 other elements (100 spawnpoint)\n" +
		maps + "lv-houses.pwn.txt (samp): 918 objects (686 SA-MP models), 8 removed buildings\n" +
		maps + "death-rally-final.map (mta): 1033 objects, 146 other elements (48 checkpoint, 66 racepickup, 32 spawnpoint); 1 note\n" +
		"  note: " + maps + "death-rally-final.map:1: xml: declares encoding \"utf-16\" but its bytes are UTF-8, read as UTF-8\n"
	if out != want {
		t.Errorf("stdout:\n got %q\nwant %q", out, want)
	}
	if errs != "" {
		t.Errorf("stderr: got %q, want nothing (files below the progress size)", errs)
	}
}

func TestMapcheckProblemsAndFailures(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.map")
	notmap := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(bad, []byte("<map>\r\n<object model=\"411\" />\r\n<object model=\"1337\" />\r\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(notmap, []byte("just some notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing.map")
	code, out, errs := runMapcheck(t, bad, missing, notmap)
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	want := bad + " (mta): 1 object; 2 skipped\n" +
		"  " + bad + ":2: object model: 411 is a vehicle model (400..611), not an object model\n" +
		"  " + bad + ":4: map: <map> opened at line 1 is never closed\n"
	if out != want {
		t.Errorf("stdout:\n got %q\nwant %q", out, want)
	}
	for _, w := range []string{"missing.map: no such file", "notes.txt: not a map"} {
		if !strings.Contains(errs, w) {
			t.Errorf("stderr %q: want it to contain %q", errs, w)
		}
	}
}

func TestMapcheckUsage(t *testing.T) {
	if code, _, errs := runMapcheck(t); code != 2 || !strings.Contains(errs, "usage: dlmp mapcheck") {
		t.Errorf("no files: got exit %d, stderr %q, want 2 and the usage", code, errs)
	}
	if code, _, _ := runMapcheck(t, "-h"); code != 0 {
		t.Errorf("-h: got exit %d, want 0", code)
	}
}

func TestMapcheckProgress(t *testing.T) {
	defer func(v int64) { progressMin = v }(progressMin)
	progressMin = 0
	code, _, errs := runMapcheck(t, maps+"death-rally-final.map")
	if code != 0 {
		t.Fatalf("exit %d, want 0", code)
	}
	lines := strings.Split(strings.TrimSpace(errs), "\n")
	if len(lines) < 10 || len(lines) > 12 {
		t.Errorf("got %d progress lines, want about 11 (every tenth):\n%s", len(lines), errs)
	}
	if last := lines[len(lines)-1]; last != maps+"death-rally-final.map: 100%" {
		t.Errorf("last progress line: got %q, want 100%%", last)
	}
}
