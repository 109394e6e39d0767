import sys; import os; sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mod
from mod import *
def prior_v(vals, variant):
    vals=[(s2,d) for s2,d in vals if s2 and s2>0]
    n=len(vals)
    minn = 20 if variant=="min20" else 10
    if n<minn or variant=="own": return 0,0
    e=[math.log(s2)-digamma(d/2)+math.log(d/2) for s2,d in vals]
    em=sum(e)/n; tot=sum((x-em)**2 for x in e)/(n-1); tri=sum(trigamma(d/2) for _,d in vals)/n
    ev=tot-tri
    if variant.startswith("se"):
        k=float(variant[2:]); ev=ev+k*tot*math.sqrt(2/(n-1))
    sd=sum(d for _,d in vals)
    d0=2*trigamma_inv(ev) if ev>0 else sd
    d0=min(d0,sd)
    return d0, math.exp(em+digamma(d0/2)-math.log(d0/2))
def intervals_v(pts, variant):
    out={}; bydev={}
    for k,v in pts.items():
        kk,s2,w=passstats(v['s']); bydev.setdefault(k[0],[]).append((k,kk,s2,w))
    for dev,lst in bydev.items():
        d0,s0=prior_v([(s2,kk-1) for _,kk,s2,_ in lst if s2 is not None], variant)
        for k,kk,s2,w in lst:
            v=pts[k]; med=v['med']
            if s2 is None: out[k]=(med,v['lo'],v['hi']); continue
            if d0>0: var=(d0*s0+(kk-1)*s2)/(d0+kk-1); df=d0+kk-1
            else: var=s2; df=kk-1
            half=t975(min(df,1000))*math.sqrt(max(var,w)/kk)
            if variant.startswith("run"):
                gpu = dev=="cl:0.0" and "h200" in CUR
                rs = 0.03 if gpu else float(variant[3:])
                half=math.sqrt(half*half+(1.96*rs)**2)
            lo=med*math.exp(-half); hi=med*math.exp(half)
            lo*= (1-v['cont']) if dev in ('cpu','cl:0.0') else 1
            out[k]=(med,lo,hi)
    return out
import itertools
sets=[("VM",[sorted(glob.glob(f"/tmp/rfo/{s}{i}/runs/*/results.xml.gz"))[0] for i in (1,2)]) for s in ("ab_a","ab_b","final_a","omp_a")]
sets.append(("H200cmp",sorted(glob.glob("/work/main/tests/data/gpu/h200-compare/runs/*/results.xml.gz"))))
sets.append(("H200hop",sorted(glob.glob("/work/main/tests/data/gpu/h200-hop/runs/*/results.xml.gz"))))
loaded={}
for name,files in sets:
    loaded.setdefault(name,[]).append([load(f) for f in files])
for variant in ("own","mod","min20","se1","se2","run0.09","run0.06","run0.045"):
    line=[]
    for name,groups in loaded.items():
        agg={}
        for runs in groups:
            global CUR
            CUR = "h200" if name.startswith("H200") else "vm"
            ivs=[intervals_v(r,variant) for r in runs]
            for a,b in itertools.permutations(range(len(ivs)),2):
                for k,(m,lo,hi) in ivs[a].items():
                    if k in ivs[b]:
                        d=agg.setdefault(k[0],[0,0,0,0,[]]); d[0]+=1; d[1]+= lo<=ivs[b][k][0]<=hi
            for o in ivs:
                for k,(m,lo,hi) in o.items():
                    d=agg.setdefault(k[0],[0,0,0,0,[]]); d[2]+=1; d[3]+= lo<=0 or hi>2*lo; d[4].append(hi/lo)
        line.append(name+" "+" ".join("%s u%.0f%% c%.0f%% w%.2f"%(d[:5],100*v[3]/v[2],100*v[1]/v[0],statistics.median(v[4])) for d,v in sorted(agg.items())))
    print("%-6s"%variant," | ".join(line))
