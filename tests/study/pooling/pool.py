import gzip,glob,itertools,statistics
import xml.etree.ElementTree as ET
def load(f):
    r=ET.parse(gzip.open(f)).getroot(); o={}
    for p in r.iter("point"):
        if p.get("status")!="ok": continue
        s=[x for x in p.iter("summary") if x.get("view")=="resident"][0]
        o[(p.get("device"),p.get("mode"),int(p.get("hidden")),int(p.get("batch")))]=(float(s.get("median")),float(s.get("ci-lo")),float(s.get("ci-hi")))
    return o
for root in ("/tmp/rfo","/tmp/rf"):
    agg={}
    for s in ("ab_a","ab_b","final_a","omp_a"):
        runs=[load(glob.glob(f"{root}/{s}{i}/runs/*/results.xml.gz")[0]) for i in (1,2)]
        for a,b in itertools.permutations(range(2),2):
            for k,(m,lo,hi) in runs[a].items():
                if k not in runs[b]: continue
                d=agg.setdefault(k[0],[0,0,0,0,[]]); d[0]+=1; d[1]+= lo<=runs[b][k][0]<=hi
        for r in runs:
            for k,(m,lo,hi) in r.items():
                d=agg[k[0]]; d[2]+=1; d[3]+= (lo<=0 or hi>2*lo); d[4].append(hi/lo)
    print(root, {k:"cov %d/%d=%.0f%% uninf %d/%d=%.0f%% hilo %.2f"%(v[1],v[0],100*v[1]/v[0],v[3],v[2],100*v[3]/v[2],statistics.median(v[4])) for k,v in sorted(agg.items())})
