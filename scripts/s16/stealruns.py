#!/usr/bin/env python3
# stealruns.py: the host's steal during each of session 16's runs of main at 50 Hz (steal.sh's
# /tmp/steal.log, 10 ms ticks a second, summed from the run's first to its last summary) against
# the run's tick p99 (/tmp/lr-TAG.json): pass rates by steal and the correlation.
import json, datetime, statistics as st
steal = {}
for l in open('/tmp/steal.log'):
    f = l.split(); steal[f[0]] = int(f[8])
def secs(a, b):
    t, tot = a, 0
    while t <= b:
        tot += steal.get(t.strftime('%H:%M:%S'), 0); t += datetime.timedelta(seconds=1)
    return tot
tags = ['s101', 's102', 'h1-50', 'h2-50'] + [f't{i}' for i in range(1, 41)] + \
    [f'pm{i}' for i in list(range(1, 9)) + list(range(11, 15))] + [f'pa{i}' for i in range(11, 15)]
rows = []
for t in tags:
    sums = [json.loads(l) for l in open(f'/tmp/lr-{t}.log') if '"msg":"summary"' in l]
    a = datetime.datetime.fromisoformat(sums[0]['time'][:19]); b = datetime.datetime.fromisoformat(sums[-1]['time'][:19])
    rows.append((t, secs(a, b), json.load(open(f'/tmp/lr-{t}.json'))['tick_p99_ms']))
for lo, hi in [(0, 1), (2, 2), (3, 3), (4, 99)]:
    g = [r for r in rows if lo <= r[1] <= hi]
    print(f"steal {lo}-{hi} ticks: {len(g)} runs, {sum(r[2] <= 5 for r in g)} pass, median p99 {st.median([r[2] for r in g]):.2f}")
def corr(rs):
    x = [r[1] for r in rs]; y = [r[2] for r in rs]; mx, my = st.mean(x), st.mean(y)
    return sum((i - mx) * (j - my) for i, j in zip(x, y)) / (sum((i - mx) ** 2 for i in x) * sum((j - my) ** 2 for j in y)) ** .5
print(f"corr {corr(rows):.2f}, without t4 {corr([r for r in rows if r[0] != 't4']):.2f}")
