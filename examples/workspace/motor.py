"""DC motor speed and position model (armature-controlled).

States: x = [theta, omega, i]  (angle, angular velocity, armature current)
Input:  u = armature voltage
"""
import numpy as np

J = 0.01   # rotor inertia (kg m^2)
b = 0.1    # viscous friction (N m s)
K = 0.01   # motor constant (N m / A)
R = 1.0    # armature resistance (ohm)
L = 0.5    # armature inductance (H)

A = np.array([
    [0.0, 1.0, 0.0],
    [0.0, -10.0, 1.0],
    [0.0, -0.02, -2.0],
])
B = np.array([[0.0],
              [0.0],
              [2.0]])

sample_time = 0.05
labels = ["theta", "omega", "i"]


def closed_loop(K_gain):
    return A - B @ K_gain
