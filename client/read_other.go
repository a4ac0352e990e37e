//go:build !linux

package client

import "dlmp/internal/conn"

// read reads until the socket is closed.
func (c *Client) read(ms []conn.Message) { c.readEach(ms) }
