import json,glob,itertools,statistics
def load(d):
    f=glob.glob(d+"/runs/*/results.json")[0]; j=json.load(open(f)); o={}
    for c in j.get("ratios",[]):
        if c["cost"] or c["mode"]!="inference" or c["view"]!="resident": continue
        other=c.get("other") or c.get("other_id") or str(c)
        key=json.dumps({k:v for k,v in c.items() if k not in("shapes",)},sort_keys=True)
        for sh in c["shapes"]:
            o[(key,sh[0],sh[1])]=sh[2:]
    return o
for root in ("/tmp/rfo","/tmp/rf","/tmp/rfr"):
    agg={}
    for s in ("ab_a","ab_b","final_a","omp_a"):
        runs=[load(f"{root}/{s}{i}") for i in (1,2)]
        for a,b in itertools.permutations(range(2),2):
            for k,v in runs[a].items():
                if k not in runs[b]: continue
                adv,lo,hi=v[0],v[1],v[2]
                d=agg.setdefault(json.loads(k[0]).get("other","?"),[0,0,0,0,[]]); d[0]+=1; d[1]+= lo<=runs[b][k][0]<=hi
        for r in runs:
            for k,v in r.items():
                d=agg.setdefault(json.loads(k[0]).get("other","?"),[0,0,0,0,[]]); d[2]+=1; d[3]+= v[1]>1 or v[2]<1; d[4].append(v[2]/v[1])
    print(root, {k:"settled %d/%d, ratio hi/lo %.2f, coverage %d/%d=%.0f%%"%(v[3],v[2],statistics.median(v[4]),v[1],v[0],100*v[1]/v[0]) for k,v in agg.items()})
