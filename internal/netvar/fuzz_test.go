package netvar

import (
	"testing"
	"time"
)

// FuzzStoreInput feeds arbitrary client payloads to the server's two
// inbound paths: nothing panics, and whatever ClientSet accepts is stored
// on the sender only.
func FuzzStoreInput(f *testing.F) {
	r := NewRegistry()
	r.SetLogger(discard())
	r.Register("f1").SetPlayer().Bool().Debounce(0.5).ClientOwned()
	r.Register("mood").SetLocalPlayer().Enum([]any{"ok", "sad"}).Debounce(1).ClientOwned()
	r.Register("name").SetPlayer().String(8).Debounce(1).ClientOwned()
	r.Register("srv").SetPlayer().UByte()
	s := r.Seal()
	f1, _ := s.Lookup("f1")
	name, _ := s.Lookup("name")
	f.Add(AppendClientSet(nil, s, f1, true), AppendResyncRequest(nil, []Ref{car}))
	f.Add(AppendClientSet(nil, s, name, "bob"), []byte{0})
	f.Fuzz(func(t *testing.T, set, req []byte) {
		w := newFakeWorld(1, 2)
		st, err := NewStore(r, w, func(PlayerID, Message, []byte) {}, Config{})
		if err != nil {
			t.Fatal(err)
		}
		st.Handshake(1)
		st.Handshake(2)
		now := time.Unix(0, 0)
		st.ClientSet(now, 1, set)
		st.ResyncRequest(1, req)
		st.Tick(now.Add(2 * time.Second))
		for _, k := range []string{"f1", "name", "srv"} {
			if v := st.Get(PlayerRef(2), k); v != nil {
				t.Fatalf("player 1's ClientSet changed player 2's %s to %v", k, v)
			}
		}
		if v := st.Get(PlayerRef(1), "srv"); v != nil {
			t.Fatalf("ClientSet wrote the server-owned var: %v", v)
		}
	})
}

// FuzzMirrorReceive feeds arbitrary server payloads to a client mirror:
// nothing panics, and a bad message is counted.
func FuzzMirrorReceive(f *testing.F) {
	srv := NewRegistry()
	srv.SetLogger(discard())
	registerShared(srv)
	srv.Seal()
	s := srv.Schema()
	job, _ := s.Lookup("job")
	f.Add(uint8(MsgSync), AppendSync(nil, srv.Manifest(), nil))
	f.Add(uint8(MsgUpdate), AppendUpdate(nil, s, Target{Ref: PlayerRef(2), UserID: 9}, job, "x"))
	f.Fuzz(func(t *testing.T, msg uint8, payload []byte) {
		cl := NewRegistry()
		cl.SetLogger(discard())
		registerShared(cl)
		m := NewMirror(cl, 1, func(Message, []byte) {})
		m.Receive(MsgSync, AppendSync(nil, srv.Manifest(), nil))
		if err := m.Receive(Message(msg%5), payload); err != nil && m.Dropped() == 0 {
			t.Fatalf("error %v not counted", err)
		}
	})
}
