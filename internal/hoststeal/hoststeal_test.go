package hoststeal

import (
	"runtime"
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	stat := "cpu  4705 356 584 3699 23 0 12 37 0 0\ncpu0 2000 100 300 1800 10 0 6 20 0 0\nintr 1\n"
	if d, ok := Parse(stat); !ok || d != 370*time.Millisecond {
		t.Errorf("steal %v, %v; want 370ms, true", d, ok)
	}
	for _, bad := range []string{"", "cpu 1 2 3\n", "cpu  1 2 3 4 5 6 7 x 0 0\n", "cpu0 1 2 3 4 5 6 7 8 9 0\n"} {
		if _, ok := Parse(bad); ok {
			t.Errorf("Parse(%q) read a steal", bad)
		}
	}
}

func TestTotalOnLinux(t *testing.T) {
	if runtime.GOOS != "linux" {
		if _, ok := Total(); ok {
			t.Fatal("Total read a steal off Linux")
		}
		return
	}
	a, ok := Total()
	if !ok {
		t.Fatal("Total could not read /proc/stat")
	}
	if b, _ := Total(); b < a {
		t.Errorf("steal went back: %v then %v", a, b)
	}
}
