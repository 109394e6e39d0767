import sys, os; sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ratio import load, ratios
import glob, statistics, itertools
# the run-to-run variance of a ratio: none, then the host's CPUs at 0.06 and the GPU at 0.03
for RL in (0.0, 0.06**2+0.03**2):
 print('run-to-run variance', RL)
 for name,files in (("H200cmp",sorted(glob.glob("/work/main/tests/data/gpu/h200-compare/runs/*/results.xml.gz"))),("H200hop",sorted(glob.glob("/work/main/tests/data/gpu/h200-hop/runs/*/results.xml.gz")))):
     runs=[load(f) for f in files]
     line=[]
     for pool in (0,1):
         rs=[ratios(r,"cpu","cl:0.0",pool,RL) for r in runs]
         cov=tot=settled=n=0; hl=[]
         for a,b in itertools.permutations(range(len(rs)),2):
             for k,(x,lo,hi) in rs[a][0].items():
                 if k in rs[b][0]: tot+=1; cov+= lo<=rs[b][0][k][0]<=hi
         for o,_ in rs:
             for k,(x,lo,hi) in o.items(): n+=1; settled+= lo>1 or hi<1; hl.append(hi/lo)
         line.append("%s: settled %d/%d hi/lo %.3f cov %.0f%%"%("pooled" if pool else "own",settled,n,statistics.median(hl),100*cov/tot))
     print(name," | ".join(line))
