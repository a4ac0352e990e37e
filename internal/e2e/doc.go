// Package e2e holds the end-to-end tests: the real server (transport, world,
// gamemode) and real SDK clients over real UDP on loopback, directly and
// through a lossy relay that drops 10 % of the datagrams each way. It has no
// code of its own outside its tests.
package e2e
