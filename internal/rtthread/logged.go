package rtthread

import "log/slog"

// LockLogged is Lock for one of the server's named threads ("tick",
// "writer"), at prio when it is above 0, saying in log what came of it:
// "<name> thread real-time" with the thread's id and "<name>_fifo", or a
// warning that the thread stays in the ordinary class, with the error. At
// prio 0, or on error, it locks nothing and returns tid 0; the unlock is
// always safe to defer.
func LockLogged(log *slog.Logger, name string, prio int) (tid int, unlock func()) {
	if prio <= 0 {
		return 0, func() {}
	}
	tid, unlock, err := Lock(prio)
	if err != nil {
		log.Warn("the "+name+" thread stays in the ordinary class", name+"_fifo", prio, "err", err)
		return 0, unlock
	}
	log.Info(name+" thread real-time", "tid", tid, name+"_fifo", prio)
	return tid, unlock
}
