#!/usr/bin/env python3
"""Optional cross-check of controlbench.jsonl against SciPy (numpy + scipy needed).

The expected values are our solver's by design (except the design family's, which come from
design_ref.py and are compared with the solver by verify.mjs); this script only recomputes what SciPy can
(Riccati/LQR/Kalman, SISO placement by Ackermann, c2d, Lyapunov, margins and H-infinity on
dense grids, H2, Bode, eigenvalues and modes, step/impulse, stepinfo on a fine grid) and
reports any disagreement. Structural numbers (ranks, uncontrollable modes, DC gain, zeros)
are skipped. Exit code 1 on a mismatch.
"""
import json, numpy as np, scipy.linalg as la, scipy.signal as sig
def parse(src):
    tool, js = src[len('control solve '):].split(' ',1); return tool, json.loads(js.strip("'"))
def M(x): return np.array(x, float)
def get(r, path):
    import re
    for p in re.findall(r'[^.\[\]]+', path):
        r = r[int(p)] if p.isdigit() else r[p]
    return r
def cl(z): return [[x.real,x.imag] for x in sorted(np.linalg.eigvals(z) if np.ndim(z)==2 else z,key=lambda v:(round(v.real,12),v.imag))]
def ref(tool, a):
    if tool in ('eig','analyse'):
        ev=cl(M(a['A'])); Ts=a.get('Ts',0)
        modes=[]
        for re,im in ev:
            s_=complex(re,im); s_=np.log(s_)/Ts if Ts else s_
            wn=abs(s_); modes.append({'wn':wn,'zeta':-s_.real/wn,'tau':-1/s_.real if s_.real<0 else None})
        return {'eigenvalues':ev,'modes':modes}
    if tool=='lqr' or tool=='care':
        A,B,Q,R=M(a['A']),M(a['B']),M(a['Q']),M(a['R']); N=M(a['N']) if 'N' in a else None
        X=la.solve_continuous_are(A,B,Q,R,s=N); K=la.solve(R,B.T@X+(N.T if N is not None else 0))
        return {'K':K,'X':X,'poles':cl(A-B@K)}
    if tool in('dlqr','dare'):
        A,B,Q,R=M(a['A']),M(a['B']),M(a['Q']),M(a['R'])
        N=M(a['N']) if 'N' in a else np.zeros((A.shape[0],B.shape[1]))
        X=la.solve_discrete_are(A,B,Q,R,s=N); K=la.solve(R+B.T@X@B,B.T@X@A+N.T)
        return {'K':K,'X':X,'poles':cl(A-B@K)}
    if tool in('lqe','kalman'):
        A,G,C,Qn,Rn=M(a['A']),M(a['G']),M(a['C']),M(a['Qn']),M(a['Rn'])
        GN=G@M(a['N']) if 'N' in a else np.zeros((A.shape[0],C.shape[0]))
        if a.get('Ts',0)>0:
            P=la.solve_discrete_are(A.T,C.T,G@Qn@G.T,Rn,s=GN); S=C@P@C.T+Rn; Mg=P@C.T@np.linalg.inv(S)
            return {'P':P,'M':Mg,'L':(A@P@C.T+GN)@np.linalg.inv(S),'Z':P-Mg@C@P}
        P=la.solve_continuous_are(A.T,C.T,G@Qn@G.T,Rn,s=GN); L=(P@C.T+GN)@np.linalg.inv(Rn)
        return {'P':P,'L':L,'poles':cl(A-L@C)}
    if tool=='place':
        A,B=M(a['A']),M(a['B']); p=[complex(*x) for x in a['poles']]
        if B.shape[1]==1:
            # Ackermann
            n=A.shape[0]; Cm=np.hstack([np.linalg.matrix_power(A,i)@B for i in range(n)])
            c=np.real(np.poly(p)); phi=sum(c[i]*np.linalg.matrix_power(A,n-i) for i in range(n+1))
            K=np.eye(n)[-1:]@np.linalg.solve(Cm,phi); return {'K':K,'Acl':A-B@K}
        return None
    if tool=='c2d':
        A,B,C=M(a['A']),M(a['B']),M(a['C']); D=M(a['D']) if 'D' in a else np.zeros((C.shape[0],B.shape[1]))
        m=a.get('method','zoh'); m={'tustin':'bilinear'}.get(m,m)
        Ad,Bd,Cd,Dd,_=sig.cont2discrete((A,B,C,D),a['Ts'],method=m); return {'Ad':Ad,'Bd':Bd,'Cd':Cd,'Dd':Dd}
    if tool=='lyap':
        return {'X':la.solve_continuous_lyapunov(M(a['A']),-M(a['Q']))}
    if tool=='hinfnorm' or tool=='h2norm':
        A,B,C=M(a['A']),M(a['B']),M(a['C']); Ts=a.get('Ts',0)
        if tool=='h2norm':
            P=la.solve_discrete_lyapunov(A,B@B.T) if Ts else la.solve_continuous_lyapunov(A,-B@B.T)
            return {'h2':np.sqrt(np.trace(C@P@C.T))}
        ws=np.linspace(1e-6, np.pi/Ts if Ts else 50, 400001)
        n=A.shape[0]
        zs=np.exp(1j*ws*Ts) if Ts else 1j*ws
        g=max((np.linalg.svd(C@np.linalg.solve(z*np.eye(n)-A,B),compute_uv=False)[0],w) for z,w in zip(zs[::20],ws[::20]))
        return {'hinf':g[0],'fpeak':g[1]}
    if tool=='margins':
        if 'num' in a: num=a['num'];den=a['den']
        else:
            nn,dd=sig.ss2tf(M(a['A']),M(a['B']),M(a['C']),np.zeros((1,1))); num=nn[0];den=dd
        Ts=a.get('Ts',0)
        ws=np.logspace(-3,np.log10(np.pi/Ts) if Ts else 3,2000001)
        if Ts: ws=ws[ws<np.pi/Ts]
        z=np.exp(1j*ws*Ts) if Ts else 1j*ws
        L=np.polyval(num,z)/np.polyval(den,z); mag=abs(L); ph=np.unwrap(np.angle(L))*180/np.pi
        out={}
        i=np.where(np.diff(np.sign(mag-1)))[0]
        if len(i): out['w_gc']=ws[i[0]]; out['pm_deg']=180+ph[i[0]]; 
        w180=np.mod(ph,360)-180  # zero where phase = -180 (mod 360)
        j=[k for k in np.where(np.diff(np.sign(w180)))[0] if abs(w180[k])<5]
        if j: out['w_pc']=ws[j[0]]; out['gm']=1/mag[j[0]]; out['gm_db']=-20*np.log10(mag[j[0]])
        return out
    if tool=='freqresp':
        A,B,C=M(a['A']),M(a['B']),M(a['C']); n=A.shape[0]
        H=[(C@np.linalg.solve(1j*w*np.eye(n)-A,B))[0,0] for w in a['w']]
        return {'mag_db':[20*np.log10(abs(h)) for h in H],'phase_deg':list(np.unwrap(np.angle(H))*180/np.pi)}
    if tool=='dlyap': return {'X':la.solve_discrete_lyapunov(M(a['A']),M(a['Q']))}
    if tool=='ss2tf':
        nn,dd=sig.ss2tf(M(a['A']),M(a['B']),M(a['C']),np.zeros((1,1))); return {'num':list(nn[0]),'den':list(dd)}
    if tool in ('step','impulse'):
        A,B,C=M(a['A']),M(a['B']),M(a['C']); n=A.shape[0]
        if tool=='impulse': return {'y':[(C@la.expm(A*t)@B)[0,0] for t in a['t']]}
        return {'y':[(C@np.linalg.solve(A,(la.expm(A*t)-np.eye(n))@B))[0,0] for t in a['t']]}
    if tool=='stepinfo':
        A,B,C=M(a['A']),M(a['B']),M(a['C']); n=A.shape[0]
        ts=np.linspace(0,20,2000001); sysd=sig.StateSpace(A,B,C,np.zeros((1,1)))
        _,y=sig.step(sysd,T=ts); yf=y[-1]; k=np.argmax(y)
        r10=ts[np.argmax(y>=0.1*yf)]; r90=ts[np.argmax(y>=0.9*yf)]
        out=np.where(abs(y-yf)>0.02*abs(yf))[0][-1]
        return {'overshoot_pct':100*(y[k]-yf)/yf,'peak_time':ts[k],'rise_time':r90-r10,'settling_time':ts[out]}
    return None
bad=0; checked=0; skipped=set()
import os, sys
for line in open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'controlbench.jsonl')):
    q=json.loads(line)
    for n in q['expect']['numbers']:
        tool,a=parse(n['source']); r=ref(tool,a)
        if r is None: skipped.add((q['id'],tool)); continue
        try: v=get(r,n['path'])
        except Exception as e: skipped.add((q['id'],tool,n['path'])); continue
        tol = 2e-3 if tool in ('margins','hinfnorm','stepinfo') else 1e-6
        err=abs(v-n['value'])/max(abs(v),abs(n['value']),1e-12); checked+=1
        if err>tol: bad+=1; print('MISMATCH',q['id'],n['name'],n['value'],v,err)
print('checked',checked,'bad',bad,'skipped',sorted(skipped))

sys.exit(1 if bad else 0)
