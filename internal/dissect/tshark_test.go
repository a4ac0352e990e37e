package dissect

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// script is the dissector under test, relative to this package.
var script = filepath.Join("..", "..", "docs", "wireshark", "dlmp.lua")

// dissected is one dlmp packet as tshark shows it.
type dissected struct {
	fields  map[string]string // every dlmp.* field of the packet
	message *message          // the reassembled message a Fragment completed
}

// message is a reassembled message under a Fragment.
type message struct {
	bytes  string // dlmp.message, colon hex
	frames string // dlmp.message_frames
	inner  []dissected
}

// frameDoc is the dlmp part of one frame.
type frameDoc struct {
	dlmp    bool // the frame was dissected as dlmp
	packets []dissected
	experts []string // dlmp expert infos, by name (dlmp.unknown_id)
	info    string   // the info column
}

// dissect runs tshark with the dissector on pcap and returns every frame,
// with extra arguments (a Decode As) before the file.
func dissect(t *testing.T, tshark, pcap string, extra ...string) []frameDoc {
	t.Helper()
	// Read the script here too: go test caches a result by the files the
	// test process opens, and only tshark reads the script otherwise.
	if b, err := os.ReadFile(script); err != nil || len(b) == 0 {
		t.Fatalf("the dissector %s: %v (%d bytes)", script, err, len(b))
	}
	base := append([]string{"-X", "lua_script:" + script}, extra...)
	base = append(base, "-r", pcap)
	out := run(t, tshark, append(base, "-T", "json", "--no-duplicate-keys")...)
	var docs []struct {
		Source struct {
			Layers map[string]json.RawMessage `json:"layers"`
		} `json:"_source"`
	}
	if err := json.Unmarshal(out, &docs); err != nil {
		t.Fatalf("tshark -T json: %v", err)
	}
	frames := make([]frameDoc, len(docs))
	for i, d := range docs {
		for name, raw := range d.Source.Layers {
			if bytes.Contains(raw, []byte("Lua Error")) {
				t.Fatalf("frame %d: the dissector failed in layer %q: %s", i+1, name, raw)
			}
		}
		raw, ok := d.Source.Layers["dlmp"]
		if !ok {
			continue
		}
		f, err := parseLayer(raw)
		if err != nil {
			t.Fatalf("frame %d: %v", i+1, err)
		}
		frames[i] = f
	}
	info := run(t, tshark, append(base, "-T", "fields", "-e", "_ws.col.Info")...)
	sc := bufio.NewScanner(bytes.NewReader(info))
	sc.Buffer(nil, 1<<20)
	for i := 0; sc.Scan(); i++ {
		if i >= len(frames) {
			t.Fatalf("tshark -T fields printed more lines than the %d frames of -T json", len(frames))
		}
		frames[i].info = sc.Text()
	}
	return frames
}

func run(t *testing.T, name string, args ...string) []byte {
	t.Helper()
	var stderr bytes.Buffer
	cmd := exec.Command(name, args...)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, stderr.String())
	}
	// tshark reports Lua errors on stderr and goes on without the dissector.
	for _, line := range strings.Split(stderr.String(), "\n") {
		if strings.Contains(line, "Lua") || strings.Contains(line, "lua") {
			t.Fatalf("%s %s: %s", name, strings.Join(args, " "), stderr.String())
		}
	}
	return out
}

// parseLayer reads the "dlmp" layer of tshark's JSON: "dlmp" holds one
// packet object or an array of them, then the undelimited rest with its
// expert info.
func parseLayer(raw json.RawMessage) (frameDoc, error) {
	f := frameDoc{dlmp: true}
	var layer map[string]json.RawMessage
	if err := json.Unmarshal(raw, &layer); err != nil {
		return f, fmt.Errorf("dlmp layer: %w", err)
	}
	pkts, err := parsePackets(layer["dlmp"])
	if err != nil {
		return f, err
	}
	f.packets = pkts
	f.experts = experts(raw)
	return f, nil
}

// parsePackets reads one packet object or an array of them.
func parsePackets(raw json.RawMessage) ([]dissected, error) {
	if len(raw) == 0 {
		return nil, nil
	}
	var objs []map[string]json.RawMessage
	if raw[0] == '[' {
		if err := json.Unmarshal(raw, &objs); err != nil {
			return nil, fmt.Errorf("dlmp packets: %w", err)
		}
	} else {
		var one map[string]json.RawMessage
		if err := json.Unmarshal(raw, &one); err != nil {
			return nil, fmt.Errorf("dlmp packet: %w", err)
		}
		objs = append(objs, one)
	}
	out := make([]dissected, len(objs))
	for i, o := range objs {
		d := dissected{fields: map[string]string{}}
		for k, v := range o {
			switch {
			case k == "dlmp.message_tree":
				var tree map[string]json.RawMessage
				if err := json.Unmarshal(v, &tree); err != nil {
					return nil, fmt.Errorf("dlmp.message_tree: %w", err)
				}
				inner, err := parsePackets(tree["dlmp"])
				if err != nil {
					return nil, err
				}
				if d.message == nil {
					d.message = new(message)
				}
				d.message.inner = inner
				json.Unmarshal(tree["dlmp.message_frames"], &d.message.frames)
			case k == "dlmp.message":
				if d.message == nil {
					d.message = new(message)
				}
				if err := json.Unmarshal(v, &d.message.bytes); err != nil {
					return nil, fmt.Errorf("dlmp.message: %w", err)
				}
			case strings.HasPrefix(k, "dlmp."):
				var s string
				if err := json.Unmarshal(v, &s); err != nil {
					return nil, fmt.Errorf("%s: not one string value: %s", k, v)
				}
				d.fields[k] = s
			}
		}
		out[i] = d
	}
	return out, nil
}

// experts returns the names of the dlmp expert infos anywhere in raw.
func experts(raw json.RawMessage) []string {
	var out []string
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, c := range v {
				if k == "_ws.expert" {
					if m, ok := c.(map[string]any); ok {
						for name := range m {
							if strings.HasPrefix(name, "dlmp.") {
								out = append(out, name)
							}
						}
					}
				}
				walk(c)
			}
		case []any:
			for _, c := range v {
				walk(c)
			}
		}
	}
	var v any
	json.Unmarshal(raw, &v)
	walk(v)
	return out
}

// writeTemp writes b to a file in the test's temporary directory.
func writeTemp(t *testing.T, name string, b []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
