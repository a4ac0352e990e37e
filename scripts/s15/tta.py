import sys, collections
rows=[l.split() for l in open(sys.argv[1])]
t0=int(rows[0][0])
ticks=[]
for i,r in enumerate(rows):
    ticks.append(dict(i=i,t=(int(r[0])-t0)/1e6,took=int(r[1]),cpu=int(r[2]),rcv=int(r[3]),world=int(r[4]),flush=int(r[5]),clock=int(r[6]),ents=int(r[7]),prims=int(r[8]),players=int(r[9]),dg=int(r[10]),behind=r[11]))
# windows of 10 s from start of trace (approx summaries)
win=collections.defaultdict(list)
for k in ticks: win[int(k['t']//10)].append(k)
for w in sorted(win):
    ks=sorted(win[w],key=lambda k:-k['took'])
    n=len(ks); p99=ks[n//100] if n>=100 else ks[0]
    print(f"win {w}: n={n} p99={p99['took']} top10:", ' '.join(f"{k['took']}" for k in ks[:10]))
    for k in ks[:8]:
        print(f"   i={k['i']} %10={k['i']%10} %50={k['i']%50} t={k['t']:.2f} took={k['took']} cpu={k['cpu']} rcv={k['rcv']} world={k['world']} (ents {k['ents']} prims {k['prims']} players {k['players']}) flush={k['flush']} behind={k['behind']}")
