package mapfile

import "testing"

func TestProblemError(t *testing.T) {
	tests := []struct {
		p    Problem
		want string
	}{
		{Problem{File: "a.map", Line: 3, Element: "object", Field: "posX", Rule: "bad"}, "a.map:3: object posX: bad"},
		{Problem{Line: 3, Element: "object", Rule: "bad"}, "3: object: bad"},
		{Problem{File: "a.map", Element: "file", Rule: "bad"}, "a.map: file: bad"},
		{Problem{Element: "CreateObject", Field: "arg 1 (modelid)", Rule: "bad"}, "CreateObject arg 1 (modelid): bad"},
	}
	for _, tt := range tests {
		if got := tt.p.Error(); got != tt.want {
			t.Errorf("got %q, want %q", got, tt.want)
		}
	}
	if _, err := Parse([]byte("x"), Options{}); err == nil || err.Error() != "not a map: neither MTA:SA XML nor SA-MP map calls" {
		t.Errorf("error without a name: got %v", err)
	}
}
