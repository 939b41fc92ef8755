1;
## The Octave side of the new-tools bench (bench/newtools.ts, issue 13): one octave-cli process,
##   octave-cli -q --no-gui bench/newtools_octave.m IN.json OUT.json
## IN.json: [{"id", "oc", "reps", "problems": [args, ...]}] as newtools.ts writes it; the args are
## our tool's arguments (a system is {A, B, C, D, Ts?} or {num, den, Ts?}). Each problem is timed
## with tic/toc around the call a user makes, the ss/tf object built inside the timed call; one
## untimed warm-up call per problem, then the minimum over `reps` calls. Process start-up, JSON
## I/O and the warm-up are outside the timing. Results are written as {"s": size, "v": real
## column-major, as text}, a system as A, B, C, D (or num, den when it is a SISO
## tf) and Ts. OUT.json.version gets the control package's version.

## the values as text (%.17g): Octave 7.3's jsonencode writes some numbers wrongly
## (jsonencode (-0.99999999999999989) gives 0), so the numbers do not go through it
function m = mx (x)
  x = double (x);
  m = struct ("s", size (x), "v", sprintf ("%.17g ", real (x(:))));
endfunction

## a system argument: {A, B, C, D, Ts?} or {num, den, Ts?}
function sys = mk (s)
  Ts = 0;
  if (isfield (s, "Ts"))
    Ts = s.Ts;
  endif
  if (isfield (s, "num"))
    if (Ts > 0)
      sys = tf (s.num(:).', s.den(:).', Ts);
    else
      sys = tf (s.num(:).', s.den(:).');
    endif
  else
    D = zeros (rows (s.C), columns (s.B));
    if (isfield (s, "D"))
      D = s.D;
    endif
    if (Ts > 0)
      sys = ss (s.A, s.B, s.C, D, Ts);
    else
      sys = ss (s.A, s.B, s.C, D);
    endif
  endif
endfunction

function r = out (sys)
  if (isa (sys, "tf") && issiso (sys))
    [num, den] = tfdata (sys, "vector");
    r.num = mx (num); r.den = mx (den);
  else
    [A, B, C, D] = ssdata (sys);
    r.A = mx (A); r.B = mx (B); r.C = mx (C); r.D = mx (D);
  endif
  r.Ts = get (sys, "tsam");
  if (r.Ts < 0)
    r.Ts = 0;
  endif
endfunction

## a p x m cell of row vectors from entries written as text, row-major (MIMO tf and zpk cases)
function c = cellof (entries, p, m)
  if (! iscell (entries))
    entries = cellstr (entries);
  endif
  c = cell (p, m);
  for i = 1:p
    for j = 1:m
      c{i, j} = str2num (["[" entries{(i - 1) * m + j} "]"]);
    endfor
  endfor
endfunction

function r = run_case (oc, a)
  switch (oc)
    case {"feedback", "series", "parallel"}
      f = str2func (oc);
      r = out (f (mk (a.sys1), mk (a.sys2)));
    case "append"
      S = a.systems;
      if (iscell (S))
        r = out (append (mk (S{1}), mk (S{2})));
      else
        r = out (append (mk (S(1)), mk (S(2))));
      endif
    case "connect"
      B = a.blocks;
      if (! iscell (B))
        B = num2cell (B);
      endif
      syss = {};
      for i = 1:numel (B)
        s = mk (B{i}.sys);
        s.InputName = B{i}.inputName; s.OutputName = B{i}.outputName;
        syss{end+1} = s;
      endfor
      S = a.sums;
      if (! iscell (S))
        S = {S};
      endif
      for i = 1:numel (S)
        syss{end+1} = sumblk (S{i});
      endfor
      r = out (connect (syss{:}, a.inputs, a.outputs));
    case "lft"
      r = out (lft (mk (a.sys1), mk (a.sys2), a.nu, a.ny));
    case "minreal"
      r = out (minreal (mk (a)));
    case "lsim"
      r.y = mx (lsim (mk (a), a.u, a.t));
    case "initial"
      r.y = mx (initial (mk (a), a.x0, a.t));
    case "gram"
      r.W = mx (gram (mk (a), a.type));
    case "hsvd"
      r.hsv = mx (hsvd (mk (a)));
    case "btamodred"
      r = out (btamodred (mk (a), a.order));
    case "spamodred"
      r = out (spamodred (mk (a), a.order));
    case "c2d"
      sys = mk (rmfield (a, "Ts"));
      if (isfield (a, "prewarp"))
        r = out (c2d (sys, a.Ts, "prewarp", a.prewarp));
      else
        r = out (c2d (sys, a.Ts, a.method));
      endif
    case "d2c"
      r = out (d2c (mk (a), a.method));
    case "d2d"
      r = out (d2d (mk (a), a.newTs));
    case "padecoef"
      [num, den] = padecoef (a.T, a.N);
      r.num = mx (num); r.den = mx (den); r.Ts = 0;
    case "lyap3"
      r.X = mx (lyap (a.A, a.Bs, a.Cs));
    case "dlyap3"
      r.X = mx (dlyap (a.A, a.Bs, a.Cs));
    case "lyapchol"
      r.R = mx (lyapchol (a.A, a.B));
    case "dlyapchol"
      r.R = mx (dlyapchol (a.A, a.B));
    case "lyapcholE"
      r.R = mx (lyapchol (a.A, a.B, a.E));
    case "dlyapcholE"
      r.R = mx (dlyapchol (a.A, a.B, a.E));
    case "linfnorm"
      ## SLICOT AB13DD: the L-infinity norm, also of an unstable model; its default tolerance
      ## (1e-2 relative, as MATLAB's) is tightened to compare digits, not tolerances
      [g, f] = norm (mk (a), Inf, 1e-10);
      r.linf = g; r.fpeak = f;
    case {"ctrbf", "obsvf"}
      f = str2func (oc);
      [Ab, Bb, Cb] = f (a.A, a.B, a.C);
      [~, ~, ~, D] = ssdata (mk (a));
      r = out (ss (Ab, Bb, Cb, D));
    case "tf2ss_mimo"
      r = out (ss (tf (cellof (a.num, a.p, a.m), cellof (a.den, a.p, a.m))));
    case "tf_of"
      r = out (tf (mk (a)));
    case "zpk_of"
      r = out (zpk (mk (a)));
    case "zpk_of_tf"
      r = out (zpk (tf (cellof (a.num, a.p, a.m), cellof (a.den, a.p, a.m))));
    case "zpk2ss_mimo"
      r = out (ss (zpk (cellof (a.z, a.p, a.m), cellof (a.pp, a.p, a.m), a.k)));
    case "sigma"
      ## one column per frequency in Octave; transposed to ours (one row per frequency)
      r.sv = mx (sigma (mk (a), a.w(:)).');
    case "estim"
      r = out (estim (mk (a), a.L));
    case "kalmanN"
      [~, L] = kalman (ss (a.A, a.G, a.C, zeros (rows (a.C), columns (a.G))), a.Qn, a.Rn, a.N);
      r.L = mx (L);
    case "place_observer"
      r.L = mx (place (a.A.', a.C.', a.poles(:)).');
    otherwise
      error ("newtools_octave: no case %s", oc);
  endswitch
endfunction

pkg load control
warning ("off", "all");
args = argv ();
J = jsondecode (fileread (args{1}));
if (! iscell (J))
  J = num2cell (J);
endif
fid = fopen ([args{2} ".version"], "w");
v = pkg ("list", "control");
fputs (fid, v{1}.version);
fclose (fid);
res = {};
for i = 1:numel (J)
  job = J{i};
  P = job.problems;
  if (! iscell (P))
    P = num2cell (P);
  endif
  outs = {};
  for k = 1:numel (P)
    o = struct ();
    try
      run_case (job.oc, P{k});   # warm-up, untimed
      ts = zeros (1, job.reps);
      for rep = 1:job.reps
        t0 = tic;
        r = run_case (job.oc, P{k});
        ts(rep) = toc (t0);
      endfor
      o.ms = 1000 * min (ts);
      o.result = r;
    catch err
      o.error = err.message;
    end_try_catch
    outs{end+1} = o;
  endfor
  res{end+1} = struct ("id", job.id, "problems", {outs});
endfor
fid = fopen (args{2}, "w");
fputs (fid, jsonencode (res));
fclose (fid);
