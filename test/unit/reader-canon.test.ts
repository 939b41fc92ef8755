/**
 * Readings of requests for the structure tools (ctrbf, obsvf, kalman_decomp, canon, ss2ss,
 * tzero): MATLAB and python-control calls and the phrases engineers write, each with the
 * request's own matrices.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Conversation, readTurn } from '../../src/core/reader/index.js';

function call(text: string, tool: string): Record<string, unknown> {
  const r = readTurn(new Conversation(), text);
  assert.equal(r.kind, 'call', JSON.stringify(r));
  if (r.kind !== 'call') throw new Error('not a call');
  assert.equal(r.tool, tool, text);
  return r.args;
}

test('ctrbf and obsvf: MATLAB calls and "staircase form"', () => {
  assert.deepEqual(call('A = [1 1; 4 -2]; B = [1 -1; 1 -1]; C = [1 0; 0 1]; [Abar,Bbar,Cbar,T,k] = ctrbf(A,B,C)', 'ctrbf').B, [
    [1, -1],
    [1, -1],
  ]);
  assert.deepEqual(call('controllability staircase form of A = [1 1; 4 -2], B = [1; 1], C = [1 0]', 'ctrbf').C, [[1, 0]]);
  assert.deepEqual(call('obsvf(A, B, C) with A = [1 1; 4 -2], B = [1; 1], C = [1 -1]', 'obsvf').C, [[1, -1]]);
});

test('kalman_decomp: "Kalman decomposition" is not the Kalman filter', () => {
  call('Kalman decomposition of A = [-1 0 0; 0 -2 0; 0 0 -3], B = [1; 1; 0], C = [1 0 1]', 'kalman_decomp');
  call('design a Kalman filter for A = [0 1; 0 0], C = [1 0], G = [0; 1], Qn = 1, Rn = 0.1', 'lqe');
});

test('canon: the modal form in words, MATLAB canon and python-control canonical_form with their forms', () => {
  assert.equal(call('modal form of A = [0 1; -2 -3], B = [0; 1], C = [1 0]', 'canon').form ?? 'modal', 'modal');
  assert.equal(call("sys = ss([0 1; -2 -3], [0; 1], [1 0], 0); csys = canon(sys, 'companion')", 'canon').form, 'companion');
  assert.equal(call("sys = ss([0 1; -2 -3], [0; 1], [1 0], 0); zsys, T = ct.canonical_form(sys, 'reachable')", 'canon').form, 'reachable');
});

test('ss2ss: MATLAB ss2ss(sys, T) and "similarity transformation"', () => {
  assert.deepEqual(call('sys = ss([0 1; -2 -3], [0; 1], [1 0], 0); T = [1 1; 0 1]; sysT = ss2ss(sys, T)', 'ss2ss').T, [
    [1, 1],
    [0, 1],
  ]);
  call('apply the similarity transformation T = [1 1; 0 1] to A = [0 1; -2 -3], B = [0; 1], C = [1 0]', 'ss2ss');
});

test('tzero: MATLAB tzero(sys) and decoupling zeros; "poles and the transmission zeros" stays poles_zeros', () => {
  call('sys = ss([-1 0; 0 -2], [1; 0], [1 1], 0); z = tzero(sys)', 'tzero');
  call('input decoupling zeros of A = [-1 0; 0 -2], B = [1; 0], C = [1 1], D = 0', 'tzero');
  call('output-decoupling zeros for A = [-1 0; 0 -2], B = [1; 0], C = [1 1]', 'tzero');
  call('I am modelling a mass-spring-damper, A = [0 1; -4 -0.8], B = [0; 1], C = [1 0], D = 0. What are the poles and the transmission zeros?', 'poles_zeros');
});
