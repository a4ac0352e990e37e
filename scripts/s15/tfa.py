import sys
for f in sys.argv[1:]:
    rows=[l.split() for l in open(f)]
    print("==", f, len(rows))
    prev=None
    tot_flt=0; tot_carve_flt=0; n_ft=0
    out=[]
    for i,r in enumerate(rows):
        took=int(r[1]); flt=int(r[17]); carved=int(r[18]); gc=r[19]; hv=int(r[20]); rel=hv>>32; total=hv&0xffffffff
        if prev:
            dc=carved-prev[0]; drel=rel-prev[1]; dtot=total-prev[2]
        else: dc=drel=dtot=0
        prev=(carved,rel,total)
        if i<600: continue
        tot_flt+=flt
        if flt>=20:
            n_ft+=1
            out.append((i,took,flt,dc,gc,drel,dtot))
    print("steady faults in ticks",tot_flt,"ticks with >=20:",n_ft)
    for o in out[:40]: print("  i=%d took=%d flt=%d carvedChunks+%d gc=%s releasedPages%+d totalPages%+d"%o)
