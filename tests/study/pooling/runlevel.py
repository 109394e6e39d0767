import sys; import os; sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mod import *
import glob, itertools
def pooled_iv(pts):
    """per point: (logmed, half_pooled, t) using mod rule"""
    out={}; bydev={}
    for k,v in pts.items():
        kk,s2,w=passstats(v['s']); bydev.setdefault(k[0],[]).append((k,kk,s2,w))
    for dev,lst in bydev.items():
        d0,s0=prior([(s2,kk-1) for _,kk,s2,_ in lst if s2 is not None])
        for k,kk,s2,w in lst:
            v=pts[k]; med=v['med']
            if s2 is None: continue
            if math.isinf(d0): var=s0; df=1000
            else: var=(d0*s0+(kk-1)*s2)/(d0+kk-1); df=d0+kk-1
            t=t975(min(df,1000)); se2=max(var,w)/kk
            out[k]=(math.log(med), se2, t, v['cont'] if dev in ('cpu','cl:0.0') else 0)
    return out
def excess(archive, dev):
    """run-level excess variance of device dev from archive runs (list of pooled_iv dicts)"""
    keys=set.intersection(*[set(k for k in a if k[0]==dev) for a in archive])
    ex=[]
    for k in keys:
        ms=[a[k][0] for a in archive]; v=statistics.variance(ms); u=statistics.mean(a[k][1] for a in archive)
        ex.append(v-u)
    return max(0.0, statistics.median(ex)) if ex else 0.0
def evaluate(name, runs, min_arch=2, use=True):
    ivs=[pooled_iv(r) for r in runs]
    agg={}
    for i in range(len(runs)):
        arch=[ivs[j] for j in range(len(runs)) if j!=i] if name.startswith("VMx") else [ivs[j] for j in range(i)]
        if len(arch)<min_arch: continue
        for dev in sorted({k[0] for k in ivs[i]}):
            e=excess(arch,dev) if use else 0.0
            for k,(lm,se2,t,cont) in ivs[i].items():
                if k[0]!=dev: continue
                half=math.sqrt(t*t*se2+1.96**2*e)
                lo=math.exp(lm-half)*(1-cont); hi=math.exp(lm+half)
                d=agg.setdefault(dev,[0,0,0,0,[],[]]); d[2]+=1; d[3]+= hi>2*lo; d[4].append(hi/lo); d[5].append(e)
                for j in range(len(runs)):
                    if j==i or k not in ivs[j]: continue
                    d[0]+=1; d[1]+= lo<=math.exp(ivs[j][k][0])<=hi
    return " ".join("%s u%.0f%% w%.2f c%.0f%% sdR%.3f"%(d[:5],100*v[3]/v[2],statistics.median(v[4]),100*v[1]/max(v[0],1),math.sqrt(statistics.median(v[5]))) for d,v in agg.items())
h200=[load(f) for f in sorted(glob.glob("/work/main/tests/data/gpu/h200-compare/runs/*/results.xml.gz"))]
print("H200cmp pooled only :", evaluate("H200", h200, 2, False))
print("H200cmp + run-level :", evaluate("H200", h200, 2, True))
vm=[load(sorted(glob.glob(f"/tmp/rfo/{s}{i}/runs/*/results.xml.gz"))[0]) for s in ("ab_a","ab_b","final_a","omp_a") for i in (1,2)]
print("VM(8) pooled only   :", evaluate("VMx", vm, 2, False))
print("VM(8) + run-level   :", evaluate("VMx", vm, 2, True))
