1;
## The Octave side of the size sweep (bench/sweep.ts): one octave-cli process per case,
##   octave-cli -q --no-gui bench/sweep_octave.m IN.json OUT.json
## IN.json: {"id", "tool", "reps", "budget_s", "fill_s", "max_calls", "problems": [{"n", "args"}]}
## as sweep.ts writes it. Each problem is timed with tic/toc around the call a user makes (the
## ss object built inside the timed call where the function takes one), the minimum over calls
## after a warm-up on the first problem: at least `reps`, more (up to `max_calls`) while they
## take under `fill_s` seconds together, none after `budget_s` seconds (at least one).
## Process start-up, JSON I/O and the warm-up are outside the timing.
## Matrices are written as {"s": size, "v": real column-major, "im": imag} so that the
## reader needs no guess about Octave's JSON shapes (a 1x1 or n x 1 matrix is flat there).

function m = mx (x)
  x = double (x);
  m = struct ("s", size (x), "v", real (x(:)).', "im", imag (x(:)).');
endfunction

## a scalar that may be Inf or NaN (jsonencode writes null for both)
function v = sc (x)
  if (isfinite (x))
    v = x;
  elseif (isnan (x))
    v = "NaN";
  elseif (x > 0)
    v = "Infinity";
  else
    v = "-Infinity";
  endif
endfunction

## the closed-loop poles at our gains as Octave's rlocus computes them: roots(den + k num)
function r = rlocus_at (a)
  [num, den] = tfdata (tf (ss (a.A, a.B, a.C, a.D)), "vector");
  num = [zeros(1, numel (den) - numel (num)), num];
  k = a.k(:);
  P = zeros (numel (den) - 1, numel (k));
  for i = 1:numel (k)
    P(:,i) = roots (den + k(i) * num);
  endfor
  r.poles = mx (P); r.gains = mx (k);
endfunction

function r = run_case (id, a)
  switch (id)
    case "eig"
      r.e = mx (eig (a.A));
    case "ctrb_rank"
      M = ctrb (a.A, a.B); r.rank = rank (M); r.matrix = mx (M);
    case "obsv_rank"
      M = obsv (a.A, a.C); r.rank = rank (M); r.matrix = mx (M);
    case "analyse"
      ## the same questions: eigenvalues, stability, controllable and observable dimension
      sys = ss (a.A, a.B, a.C, a.D);
      r.e = mx (eig (a.A)); r.stable = isstable (sys);
      [~, nc] = isctrb (a.A, a.B); [~, no] = isobsv (a.A, a.C);
      r.nc = nc; r.no = no;
    case "damp"
      [wn, zeta] = damp (ss (a.A, a.B, a.C, a.D));
      r.wn = mx (wn); r.zeta = mx (zeta);
    case "poles_zeros"
      sys = ss (a.A, a.B, a.C, a.D);
      r.poles = mx (pole (sys)); r.zeros = mx (zero (sys));
    case "lyap"
      r.X = mx (lyap (a.A, a.Q));
    case "dlyap"
      r.X = mx (dlyap (a.A, a.Q));
    case "care"
      [X, L, G] = care (a.A, a.B, a.Q, a.R); r.X = mx (X); r.K = mx (G); r.poles = mx (L);
    case "dare"
      [X, L, G] = dare (a.A, a.B, a.Q, a.R); r.X = mx (X); r.K = mx (G); r.poles = mx (L);
    case "lqr"
      [K, X, L] = lqr (a.A, a.B, a.Q, a.R); r.K = mx (K); r.X = mx (X); r.poles = mx (L);
    case "dlqr"
      [K, X, L] = dlqr (a.A, a.B, a.Q, a.R); r.K = mx (K); r.X = mx (X); r.poles = mx (L);
    case "lqe"
      [L, P, E] = lqe (a.A, a.G, a.C, a.Qn, a.Rn); r.L = mx (L); r.P = mx (P); r.poles = mx (E);
    case "kalman"
      ## all inputs of sys are noise inputs (G); discrete: L = A M, P the a-priori DARE solution
      sys = ss (a.A, a.G, a.C, zeros (rows (a.C), columns (a.G)), a.Ts);
      [~, L, P] = kalman (sys, a.Qn, a.Rn); r.L = mx (L); r.P = mx (P);
    case {"place (1 input)", "place (2 inputs)"}
      p = complex (a.poles(:,1), a.poles(:,2));
      r.K = mx (place (a.A, a.B, p));
    case {"c2d (zoh)", "c2d (tustin)"}
      sysd = c2d (ss (a.A, a.B, a.C, a.D), a.Ts, a.method);
      [Ad, Bd, Cd, Dd] = ssdata (sysd);
      r.Ad = mx (Ad); r.Bd = mx (Bd); r.Cd = mx (Cd); r.Dd = mx (Dd);
    case "tf2ss"
      [A, B, C, D] = ssdata (ss (tf (a.num(:).', a.den(:).')));
      r.A = mx (A); r.B = mx (B); r.C = mx (C); r.D = mx (D);
    case "ss2tf"
      [num, den] = tfdata (tf (ss (a.A, a.B, a.C, a.D)), "vector");
      r.num = mx (num); r.den = mx (den);
    case "dcgain"
      r.gain = mx (dcgain (ss (a.A, a.B, a.C, a.D)));
    case "freqresp"
      r.H = mx (freqresp (ss (a.A, a.B, a.C, a.D), a.w));
    case "margins"
      [gm, pm, wpc, wgc] = margin (ss (a.A, a.B, a.C, a.D));
      r.gm = sc (gm); r.pm_deg = sc (pm); r.w_pc = sc (wpc); r.w_gc = sc (wgc);
    case "nyquist"
      [re, im] = nyquist (ss (a.A, a.B, a.C, a.D), a.w);
      r.H = mx (complex (re(:), im(:)));
    case "rlocus"
      ## Octave's rlocus takes an increment between min_k and max_k (plus its own break-away
      ## and refinement gains); the increment is chosen so that its grid is linspace(0, kmax,
      ## numel(k)), our gains. Its rlpol columns do not line up with gvec once break-away gains
      ## are inserted, so the poles compared are computed after the timing (rlocus_at).
      k = a.k(:); kmax = k(end);
      [~, ~, rlpol, gvec] = rlocus (ss (a.A, a.B, a.C, a.D), kmax / (numel (k) + 0.5), 0, kmax);
      r.gvec = mx (gvec);
    case "h2norm"
      r.h2 = sc (norm (ss (a.A, a.B, a.C, a.D), 2));
    case "hinfnorm"
      ## tolerance 1e-12 as ours (Octave's default 0.01 stops early)
      [g, fpeak] = norm (ss (a.A, a.B, a.C, a.D), Inf, 1e-12);
      r.hinf = sc (g); r.fpeak = sc (fpeak);
    case "step"
      y = step (ss (a.A, a.B, a.C, a.D), a.t(:));
      r.y = mx (y);
    case "impulse"
      ## impulse of the 2 x 2 system fails in control 3.4 ("polyreduce: C must be a non-empty
      ## vector", also on small MIMO examples), so one SISO channel at a time
      sys = ss (a.A, a.B, a.C, a.D);
      t = a.t(:);
      y = zeros (numel (t), rows (a.C), columns (a.B));
      for i = 1:rows (a.C)
        for j = 1:columns (a.B)
          y(:,i,j) = impulse (sys(i,j), t);
        endfor
      endfor
      r.y = mx (y);
    otherwise
      error ("sweep_octave: no case %s", id);
  endswitch
endfunction

pkg load control
warning ("off", "all");
args = argv ();
S = jsondecode (fileread (args{1}));
P = S.problems;
if (! iscell (P))
  P = num2cell (P);
endif
## warm-up: the first (smallest) problem twice, so that parsing and first-call costs are not timed
for w = 1:2
  try
    run_case (S.id, P{1}.args);
  catch
  end_try_catch
endfor
out = {};
for k = 1:numel (P)
  q = P{k};
  o = struct ("n", q.n);
  try
    ts = [];
    t_all = tic;
    while (true)
      t0 = tic;
      r = run_case (S.id, q.args);
      ts(end+1) = toc (t0);
      spent = toc (t_all);
      if (spent > S.budget_s || numel (ts) >= S.max_calls || (numel (ts) >= S.reps && spent > S.fill_s))
        break;
      endif
    endwhile
    if (strcmp (S.id, "rlocus"))
      r = rlocus_at (q.args);
    endif
    o.ms = 1000 * min (ts);
    o.reps = numel (ts);
    o.result = r;
  catch err
    o.error = err.message;
  end_try_catch
  out{end+1} = o;
  ## written after each problem, so a long or killed run keeps what it has
  fid = fopen (args{2}, "w");
  fputs (fid, jsonencode (out));
  fclose (fid);
endfor
