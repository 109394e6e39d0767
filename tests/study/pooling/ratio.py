import sys; import os; sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mod import digamma, trigamma, trigamma_inv, t975, logmed
import gzip,glob,math,statistics,itertools
import xml.etree.ElementTree as ET
def load(f):
    r=ET.parse(gzip.open(f)).getroot(); o={}
    for p in r.iter("point"):
        if p.get("status")!="ok": continue
        s=[x for x in p.iter("summary") if x.get("view")=="resident"][0]
        by={}
        for x in p.iter("s"): by.setdefault(int(x.get("pass")),[]).append(math.log(float(x.get("wall"))))
        o[(p.get("device"),p.get("mode"),int(p.get("hidden")),int(p.get("batch")))]=(float(s.get("median")),{k:logmed(v) for k,v in by.items()})
    return o
def prior(vals):
    vals=[(v,d) for v,d in vals if v>0 and d>=1]
    n=len(vals)
    if n<10: return 0,0
    e=[math.log(v)-digamma(d/2)+math.log(d/2) for v,d in vals]; m=sum(e)/n
    ev=sum((x-m)**2 for x in e)/(n-1)-sum(trigamma(d/2) for _,d in vals)/n
    sd=sum(d for _,d in vals)
    d0=2*trigamma_inv(ev) if ev>0 else sd
    d0=min(d0,sd)
    return d0, math.exp(m+digamma(d0/2)-math.log(d0/2))
def ratios(run, base, other, pool, rl=0.0):
    """rl: the run-to-run variance added, 1.96^2*rl in quadrature"""
    cells={}
    for k,(med,pm) in run.items():
        if k[0]!=base: continue
        k2=(other,)+k[1:]
        if k2 not in run: continue
        mo,po=run[k2]
        common=sorted(set(pm)&set(po))
        d=[pm[p][0]-po[p][0] for p in common]; w=sum(pm[p][1]+po[p][1] for p in common)/max(len(common),1)
        K=len(common)
        s2=statistics.variance(d) if K>=2 else None
        cells[k[1:]]=(med/mo,K,s2,w)
    d0,s0=prior([(c[2],c[1]-1) for c in cells.values() if c[2] is not None]) if pool else (0,0)
    out={}
    for k,(ratio,K,s2,w) in cells.items():
        if K<3: continue
        if d0>0: v=(d0*s0+(K-1)*s2)/(d0+K-1); t=t975(d0+K-1)
        else: v=s2; t=t975(K-1)
        h=t*math.sqrt(max(v,w)/K); h=math.sqrt(h*h+1.96**2*rl)
        out[k]=(ratio,ratio*math.exp(-h),ratio*math.exp(h))
    return out,d0
if __name__ == "__main__":
 # the run-to-run variance of a ratio: none, then both devices on the host's CPUs at sigma 0.06
 for RL in (0.0, 2*0.06**2):
  print("run-to-run variance", RL)
  for s in ("ab_a","ab_b","final_a","omp_a"):
      runs=[load(glob.glob(f"/tmp/rf/{s}{i}/runs/*/results.xml.gz")[0]) for i in (1,2)]
      for other in ("cl:0.0","torch:cpu"):
          line=[]
          for pool in (0,1):
              rs=[ratios(r,"cpu",other,pool,RL) for r in runs]
              cov=tot=settled=n=0; hl=[]
              for a,b in itertools.permutations(range(2),2):
                  for k,(x,lo,hi) in rs[a][0].items():
                      if k in rs[b][0]: tot+=1; cov+= lo<=rs[b][0][k][0]<=hi
              for o,_ in rs:
                  for k,(x,lo,hi) in o.items(): n+=1; settled+= lo>1 or hi<1; hl.append(hi/lo)
              line.append("%s: settled %d/%d hi/lo %.2f cov %d%% d0 %s"%("pooled" if pool else "own",settled,n,statistics.median(hl),100*cov/tot,",".join("%.1f"%r[1] for r in rs)))
          print(s, other, " | ".join(line))
