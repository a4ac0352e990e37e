package transport

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"hash"
	"net/netip"
	"time"

	"dlmp/internal/wire"
)

// cookieMaker makes and checks the stateless address-validation cookies of
// HelloRetry: u32 window (Unix time / 30 s) then the first 16 bytes of
// HMAC-SHA256(secret, window ‖ client IP as 16 bytes ‖ port ‖ client_nonce).
// It keeps one HMAC and one scratch buffer: owned by the reader goroutine.
type cookieMaker struct {
	mac     hash.Hash
	scratch [4 + 16 + 2 + 8]byte
	sum     [sha256.Size]byte
}

func newCookieMaker(secret []byte) *cookieMaker {
	return &cookieMaker{mac: hmac.New(sha256.New, secret)}
}

func window(now time.Time) uint32 { return uint32(now.Unix() / int64(CookieWindow/time.Second)) }

func (c *cookieMaker) mac16(w uint32, addr netip.AddrPort, nonce uint64) []byte {
	b := c.scratch[:0]
	b = binary.LittleEndian.AppendUint32(b, w)
	ip := addr.Addr().As16()
	b = append(b, ip[:]...)
	b = binary.LittleEndian.AppendUint16(b, addr.Port())
	b = binary.LittleEndian.AppendUint64(b, nonce)
	c.mac.Reset()
	c.mac.Write(b)
	return c.mac.Sum(c.sum[:0])[:16]
}

// make returns the cookie for addr and nonce at now.
func (c *cookieMaker) make(now time.Time, addr netip.AddrPort, nonce uint64) (cookie [wire.CookieLen]byte) {
	w := window(now)
	binary.LittleEndian.PutUint32(cookie[:4], w)
	copy(cookie[4:], c.mac16(w, addr, nonce))
	return cookie
}

// valid reports whether cookie was made for addr and nonce in the current
// window or the one before.
func (c *cookieMaker) valid(now time.Time, addr netip.AddrPort, nonce uint64, cookie *[wire.CookieLen]byte) bool {
	w := binary.LittleEndian.Uint32(cookie[:4])
	cur := window(now)
	if w != cur && w+1 != cur {
		return false
	}
	return hmac.Equal(cookie[4:], c.mac16(w, addr, nonce))
}
