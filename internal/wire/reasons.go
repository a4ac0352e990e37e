package wire

import "fmt"

var reasonNames = [...]string{
	ReasonTimeout:         "timeout",
	ReasonKicked:          "kicked",
	ReasonBanned:          "banned",
	ReasonProtocolError:   "protocol_error",
	ReasonSendQueueFull:   "send_queue_full",
	ReasonNoAcks:          "no_acks",
	ReasonServerShutdown:  "server_shutdown",
	ReasonVersionMismatch: "version_mismatch",
	ReasonServerFull:      "server_full",
	ReasonQuit:            "quit",
}

// ReasonName is the name docs/protocol.md gives a disconnect reason.
func ReasonName(r uint8) string {
	if int(r) < len(reasonNames) && reasonNames[r] != "" {
		return reasonNames[r]
	}
	return fmt.Sprintf("reason(%d)", r)
}
