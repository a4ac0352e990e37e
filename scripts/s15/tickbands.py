# tickbands.py TICK_TRACE FLUSH_TRACE: decision 0425 point 3's table from a run of branch
# ticktrace (f90b22c) with DLMP_TICK_TRACE and DLMP_FLUSH_TRACE set: the means, µs, of the
# 100 steady ticks around the median and of the slowest 5 % and 1 % (steady: ticks 550-3000).
import sys
tt = [l.split() for l in open(sys.argv[1])]
ft = [l.split() for l in open(sys.argv[2])][1:]
rows = []
for i, t in enumerate(tt):
    f = ft[i] if i < len(ft) else None
    rows.append(dict(took=int(t[1]), rcv=int(t[3]), views=int(t[12]), enc=int(t[13]), sendmv=int(t[14]),
                     wp=int(t[15]), pprims=int(t[16]), flush=int(t[5]), lb=int(f[10]) if f else 0))
st = sorted(rows[550:3000], key=lambda r: r['took'])
keys = ['took', 'rcv', 'views', 'enc', 'sendmv', 'wp', 'pprims', 'flush', 'lb']
def avg(rs): return {k: round(sum(r[k] for r in rs) / len(rs)) for k in keys}
print("median band", avg(st[len(st)//2-50:len(st)//2+50]))
print("slowest 5 %", avg(st[-125:]))
print("slowest 1 %", avg(st[-25:]))
