# lanebytes.py TICK_TRACE FLUSH_TRACE: decision 0425 point 3's lane-byte quantiles of the
# steady ticks (550-3000) and the correlation of a tick's time with its lane bytes.
import sys, statistics, math
tt = [l.split() for l in open(sys.argv[1])]
ft = [l.split() for l in open(sys.argv[2])][1:]
d = [(int(t[1]), int(f[10])) for t, f in zip(tt, ft)][550:3000]
b = sorted(x[1] for x in d)
print("lane bytes p50 p90 p99", b[len(b)//2], b[len(b)*9//10], b[len(b)*99//100])
x = [v[1] for v in d]; y = [v[0] for v in d]
mx, my = statistics.mean(x), statistics.mean(y)
print("corr", sum((a-mx)*(c-my) for a, c in zip(x, y)) / math.sqrt(sum((a-mx)**2 for a in x) * sum((c-my)**2 for c in y)))
