// Package dissect tests the Wireshark dissector docs/wireshark/dlmp.lua. It
// holds no code: its tests send every packet of docs/protocol.md (the
// examples of docs/examples, datagrams of several packets, Fragments of one
// message, a datagram with an unknown id, and a real handshake of the client
// SDK against internal/transport) over loopback UDP, record them with
// dumpcap, and check with tshark that the dissector gives every field of
// every packet the value the codecs of internal/wire decode.
//
// The tests need tshark and dumpcap (Debian's tshark package). Without them
// they fail when CI=true and skip otherwise. When dumpcap cannot capture on
// the loopback interface (no capture permission), the capture is written
// from the datagrams the receiving sockets actually got; see
// docs/decisions/0100-wireshark-dissector-test.md.
package dissect
