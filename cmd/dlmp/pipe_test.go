package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestPipe builds the dlmp binary and runs "dlmp encode | dlmp decode" and
// "dlmp decode FILE | dlmp encode" through real pipes between two processes.
func TestPipe(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to build dlmp: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "dlmp")
	if out, err := exec.Command(goTool, "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}

	in := `{"packet":"SetTime","event_id":7,"hours":12,"minutes":30}`
	out, stderr := pipe(t, exec.Command(bin, "encode"), exec.Command(bin, "decode"), strings.NewReader(in))
	want := "{\n  \"packet\": \"SetTime\",\n  \"packet_id\": 33,\n  \"event_id\": 7,\n  \"hours\": 12,\n  \"minutes\": 30\n}\n"
	if string(out) != want || stderr != "" {
		t.Errorf("encode | decode: stdout\n%s\nstderr %q; want\n%s", out, stderr, want)
	}

	for _, path := range examples(t) {
		file, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		out, stderr := pipe(t, exec.Command(bin, "decode", path), exec.Command(bin, "encode"), nil)
		if !bytes.Equal(out, file) || stderr != "" {
			t.Errorf("decode %s | encode: %x, stderr %q; want %x", path, out, stderr, file)
		}
	}

	// A rejected packet: exit status 1, the reason on stderr, nothing on stdout.
	cmd := exec.Command(bin, "encode")
	cmd.Stdin = strings.NewReader(`{"packet":"SetTime","hours":24}`)
	var stdout, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &errOut
	err = cmd.Run()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || stdout.Len() != 0 || !strings.Contains(errOut.String(), "SetTime.hours") {
		t.Errorf("encode of hours 24: %v, stdout %q, stderr %q; want exit 1, nothing, the reason", err, stdout.Bytes(), errOut.String())
	}
}

// pipe runs first | second with stdin into first, and returns second's stdout
// and both stderrs; either process failing fails the test.
func pipe(t *testing.T, first, second *exec.Cmd, stdin *strings.Reader) ([]byte, string) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	var out, errs1, errs2 bytes.Buffer // one each: exec copies stderr on its own goroutine
	if stdin != nil {
		first.Stdin = stdin
	}
	first.Stdout, first.Stderr = w, &errs1
	second.Stdin, second.Stdout, second.Stderr = r, &out, &errs2
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	if err := second.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close() // the children hold their own ends
	r.Close()
	err1, err2 := first.Wait(), second.Wait()
	if err1 != nil || err2 != nil {
		t.Errorf("%v | %v: %v, %v; stderr %q %q", first.Args[1:], second.Args[1:], err1, err2, errs1.String(), errs2.String())
	}
	return out.Bytes(), errs1.String() + errs2.String()
}
