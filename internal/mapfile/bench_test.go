package mapfile

import (
	"bytes"
	"encoding/xml"
	"io"
	"os"
	"testing"
)

// BenchmarkLoad loads the 1,033-object death-rally-final.map and the
// 918-object lv-houses lines, each beside its floor: the bare
// encoding/xml tokenizer over the same bytes, and a bare line split.
// Metrics per object let the two be compared as a ratio.
func BenchmarkLoad(b *testing.B) {
	mta, err := os.ReadFile("testdata/death-rally-final.map")
	if err != nil {
		b.Fatal(err)
	}
	samp, err := os.ReadFile("testdata/lv-houses.pwn.txt")
	if err != nil {
		b.Fatal(err)
	}
	const mtaObjects, sampObjects = 1033, 918
	bench := func(name string, objects int, f func()) {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				f()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(objects), "ns/object")
			b.ReportMetric(testing.AllocsPerRun(3, f)/float64(objects), "allocs/object")
		})
	}
	bench("mta/xml.RawToken", mtaObjects, func() {
		d := xml.NewDecoder(bytes.NewReader(mta))
		d.Strict = false
		d.CharsetReader = func(_ string, r io.Reader) (io.Reader, error) { return r, nil }
		for {
			if _, err := d.RawToken(); err != nil {
				break
			}
		}
	})
	bench("mta/ParseMTA", mtaObjects, func() {
		if m, err := ParseMTA(mta, Options{}); err != nil || len(m.Objects) != mtaObjects {
			b.Fatal("load failed")
		}
	})
	bench("samp/lines", sampObjects, func() {
		n := 0
		for data := samp; len(data) > 0; n++ {
			_, data, _ = bytes.Cut(data, []byte{'\n'})
		}
		if n == 0 {
			b.Fatal("no lines")
		}
	})
	bench("samp/ParseSAMP", sampObjects, func() {
		if m := ParseSAMP(samp, Options{}); len(m.Objects) != sampObjects {
			b.Fatal("load failed")
		}
	})
}
