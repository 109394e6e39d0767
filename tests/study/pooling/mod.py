import gzip, sys, math, statistics, glob, itertools
import xml.etree.ElementTree as ET

def digamma(x):
    r=0.0
    while x<6: r-=1/x; x+=1
    f=1/(x*x)
    return r+math.log(x)-0.5/x-f*(1/12-f*(1/120-f*(1/252-f*(1/240-f/132))))
def trigamma(x):
    r=0.0
    while x<6: r+=1/(x*x); x+=1
    f=1/(x*x)
    return r+1/x+f/2+f/x*(1/6-f*(1/30-f*(1/42-f/30)))
def trigamma_inv(y):
    # limma's Newton iteration
    if y>1e7: return 1/math.sqrt(y)
    if y<1e-6: return 1/y
    x=0.5+1/y
    for _ in range(50):
        tri=trigamma(x); dif=tri*(1-tri/y)/ (2*(trigamma(x+1e-6)-tri)/1e-6*-0.5 if False else 1) 
        # derivative of trigamma: tetragamma ~ numeric
        d=(trigamma(x+1e-5)-trigamma(x-1e-5))/2e-5
        dif=tri*(1-tri/y)/d
        x+=dif
        if -dif/x<1e-8: break
    return x
def tcdf(t,df):
    # numeric via incomplete beta using continued fraction
    x=df/(df+t*t)
    def betacf(a,b,x):
        qab=a+b;qap=a+1;qam=a-1;c=1;d=1-qab*x/qap
        d=1/d if abs(d)>1e-30 else 1e30;h=d
        for m in range(1,300):
            m2=2*m;aa=m*(b-m)*x/((qam+m2)*(a+m2))
            d=1+aa*d;d=1/d if abs(d)>1e-30 else 1e30;c=1+aa/c;h*=d*c
            aa=-(a+m)*(qab+m)*x/((a+m2)*(qap+m2))
            d=1+aa*d;d=1/d if abs(d)>1e-30 else 1e30;c=1+aa/c;de=d*c;h*=de
            if abs(de-1)<1e-12:break
        return h
    a=df/2;b=0.5
    bt=math.exp(math.lgamma(a+b)-math.lgamma(a)-math.lgamma(b)+a*math.log(x)+b*math.log(1-x))
    ib=bt*betacf(a,b,x)/a if x<(a+1)/(a+b+2) else 1-bt*betacf(b,a,1-x)/b
    return 1-0.5*ib if t>0 else 0.5*ib
def t975(df):
    lo,hi=1.0,20.0
    for _ in range(80):
        m=(lo+hi)/2
        if tcdf(m,df)<0.975: lo=m
        else: hi=m
    return (lo+hi)/2

def logmed(y):
    m=statistics.median(y); mad=statistics.median([abs(v-m) for v in y])
    return m, math.pi/2*(1.4826*mad)**2/len(y)

def load(f):
    root=ET.parse(gzip.open(f)).getroot(); pts={}
    for p in root.iter("point"):
        if p.get("status")!="ok": continue
        s=[(float(x.get("wall")),int(x.get("pass"))) for x in p.iter("s")]
        summ=[x for x in p.iter("summary") if x.get("view")=="resident"][0]
        pts[(p.get("device"),p.get("mode"),int(p.get("hidden")),int(p.get("batch")))]=dict(
            s=s, med=float(summ.get("median")), lo=float(summ.get("ci-lo")), hi=float(summ.get("ci-hi")),
            cont=float(summ.get("contention") or 0))
    return pts

def passstats(s):
    by={}
    for w,p in s: by.setdefault(p,[]).append(math.log(w))
    lm=[logmed(v) for v in by.values()]; k=len(lm)
    if k<2: return k,None,None
    mean=sum(m for m,_ in lm)/k
    s2=sum((m-mean)**2 for m,_ in lm)/(k-1); w=sum(v for _,v in lm)/k
    return k,s2,w

def prior(vals):
    # vals: list of (s2, d)
    vals=[(s2,d) for s2,d in vals if s2 and s2>0]
    n=len(vals)
    e=[math.log(s2)-digamma(d/2)+math.log(d/2) for s2,d in vals]
    em=sum(e)/n
    ev=sum((x-em)**2 for x in e)/(n-1)-sum(trigamma(d/2) for _,d in vals)/n
    if ev>0:
        d0=2*trigamma_inv(ev); s0=math.exp(em+digamma(d0/2)-math.log(d0/2))
    else: d0=float('inf'); s0=math.exp(em)
    return d0,s0

def intervals(pts, rule):
    out={}
    bydev={}
    for k,v in pts.items():
        kk,s2,w=passstats(v['s'])
        bydev.setdefault(k[0],[]).append((k,kk,s2,w))
    for dev,lst in bydev.items():
        d0,s0=prior([(s2,kk-1) for _,kk,s2,_ in lst if s2 is not None])
        for k,kk,s2,w in lst:
            v=pts[k]; med=v['med']
            if rule=='file':
                out[k]=(med,v['lo'],v['hi']); continue
            if s2 is None: out[k]=(med,v['lo'],v['hi']); continue
            if rule=='own':
                df=kk-1; var=s2
            else:
                if math.isinf(d0): var=s0; df=1000
                else:
                    var=(d0*s0+(kk-1)*s2)/(d0+kk-1); df=d0+kk-1
            half=t975(min(df,1000))*math.sqrt(max(var,w)/kk)
            lo=med*math.exp(-half); hi=med*math.exp(half)
            lo*= (1-v['cont']) if dev in ('cpu','cl:0.0') else 1
            out[k]=(med,lo,hi)
    return out, {d:prior([(s2,kk-1) for _,kk,s2,_ in lst if s2 is not None]) for d,lst in bydev.items()}

def report(runsets):
    for name,files in runsets:
        runs=[load(f) for f in files]
        print("==",name)
        for rule in ('file','own','mod'):
            ivs=[]; priors=[]
            for r in runs:
                o,pr=intervals(r,rule); ivs.append(o); priors.append(pr)
            devs=sorted({k[0] for o in ivs for k in o})
            line=[]
            for d in devs:
                n=u=0; hl=[]
                for o in ivs:
                    for k,(m,lo,hi) in o.items():
                        if k[0]!=d: continue
                        n+=1; u+= (lo<=0 or hi>2*lo); hl.append(hi/lo)
                cov=tot=0
                for a,b in itertools.permutations(range(len(ivs)),2):
                    for k,(m,lo,hi) in ivs[a].items():
                        if k[0]!=d or k not in ivs[b]: continue
                        tot+=1; cov+= lo<=ivs[b][k][0]<=hi
                line.append("%s %2.0f%% %.2f cov %2.0f%%"%(d,100*u/n,statistics.median(hl),100*cov/max(tot,1)))
            pr = "" if rule!='mod' else " priors "+"; ".join("%s d0=%.1f s0=%.3f"%(d,p[0],math.sqrt(p[1])) for pp in priors for d,p in sorted(pp.items()))
            print(" %-4s | "%rule + " | ".join(line)+pr)

sets=[]
for name,pat in [("93fc7ba ab/a","ab/a*"),("f18b0cd ab/b","ab/b*"),("7836b26 final","final/a*"),("omp","omp/a*")]:
    files=sorted(glob.glob("/tmp/sharp/%s/runs/*/results.xml.gz"%pat))
    sets.append((name,files))
if __name__=="__main__": report(sets)
