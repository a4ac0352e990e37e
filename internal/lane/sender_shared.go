package lane

// PushShared is Push by reference: the Sender keeps msg itself, not a copy,
// until the client acknowledges it, and never writes it (its event_id goes
// into the datagrams that carry it). So the caller must never write msg
// again: bytes encoded once and shared by many Senders (a label's Label3D
// of one revision, pushed to each of its viewers), replaced by new bytes
// when they change, the old ones left to the collector once every Sender
// is done with them.
//
// The push writes only the slot's head, not the message into the slot's
// lines; the Poll appends msg into the datagram from wherever it is,
// warm when many Senders share it (decision 0406). A message longer than
// the Budget is cut into fragments and copied, as by Push. Everything else
// is as Push.
func (s *Sender) PushShared(msg []byte, class Class) error {
	k, err := s.admit(msg, class)
	switch {
	case k == 0:
		return err
	case k > 1:
		s.fragment(msg, k, class)
		return nil
	}
	sl := s.take(class)
	sl.n = uint16(len(msg))
	sl.ext = msg[:len(msg):len(msg)]
	s.enqueue(sl)
	return nil
}
