% Inverted pendulum on a cart, linearised about the upright position.
% States: x = [cart position; cart velocity; pendulum angle; angular velocity]
% Input:  u = horizontal force on the cart (N)

M = 0.5;      % cart mass (kg)
m = 0.2;      % pendulum mass (kg)
b = 0.1;      % cart friction (N/m/s)
l = 0.3;      % distance to the pendulum's centre of mass (m)
g = 9.81;     % gravity (m/s^2)

A = [0 1 0 0; 0 -0.1818 2.6727 0; 0 0 0 1; 0 -0.4545 31.1818 0];
B = [0; 1.8182; 0; 4.5455];
C = [1 0 0 0; 0 0 1 0];
D = [0; 0];

Ts = 0.01;    % sample time for the discrete design (s)
Q = diag([10 1 100 1]);
R = 1;
