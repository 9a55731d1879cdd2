// Divergent control flow. Every kernel has the same signature: per work-item
// input data (in[i], values in [0, 1000)), one output out[i] (preset by the
// host to a sentinel), and a uniform n. control_test.cpp mirrors each kernel
// in C++.

kernel void if_else(global const int *in, global int *out, int n) {
  int i = get_global_id(0);
  int r;
  if (i % 3 == 0)
    r = i * 2;
  else
    r = in[i] - i;
  out[i] = r;
}

kernel void nested_if(global const int *in, global int *out, int n) {
  int i = get_global_id(0);
  int v = in[i];
  int r = 0;
  if (i & 1) {
    if (v & 2) {
      r = 1;
    } else {
      if (v & 4)
        r = 2 + v;
      else
        r = 3;
    }
    r += 10;
  } else {
    if (i % 5 == 0)
      r = 4;
    r -= 1;
  }
  out[i] = r;
}

// for loop with a per-lane trip count, break and continue.
kernel void loop_break_continue(global const int *in, global int *out, int n) {
  int i = get_global_id(0);
  int v = in[i];
  int s = 0;
  for (int k = 0; k < 64; ++k) {
    if (k > v % 50)
      break;
    if ((k + v) % 3 == 0)
      continue;
    s += k * (i % 7 + 1);
  }
  out[i] = s;
}

// while loop whose continue jumps straight back to the header (no latch code).
kernel void while_continue(global const int *in, global int *out, int n) {
  int i = get_global_id(0);
  int limit = in[i] % 40;
  int k = 0, s = 0;
  while (k < limit) {
    ++k;
    if (k & 1)
      continue;
    if (k % 6 == 0) {
      s *= 3;
      continue;
    }
    s += k;
  }
  out[i] = s + k * 1000;
}

// Both loop levels diverge, with break and continue in the inner loop.
kernel void nested_loops(global const int *in, global int *out, int n) {
  int i = get_global_id(0);
  int v = in[i];
  int s = 0;
  for (int a = 0; a < v % 5 + 1; ++a) {
    if (a == (i & 3) && (v & 8))
      continue;
    for (int b = 0; b < (v + a) % 7; ++b) {
      if (b == a)
        continue;
      if (a + b > 7)
        break;
      s += a * 10 + b;
    }
    s += 100;
  }
  out[i] = s;
}

// Some work-items return early (one after storing, one without storing), the
// others go on working.
kernel void early_return(global const int *in, global int *out, int n) {
  int i = get_global_id(0);
  int v = in[i];
  if (v % 4 == 1) {
    out[i] = -1;
    return;
  }
  int s = 0;
  for (int k = 0; k < v % 9; ++k) {
    s += k + v;
    if (s > 3000)
      return; // leaves the sentinel
  }
  if (v % 4 == 2)
    return;
  out[i] = s;
}

// While loop over loaded data: follow a linked list stored in `in` (in[p] is
// the next node, values >= n end the list).
kernel void while_data(global const int *in, global int *out, int n) {
  int i = get_global_id(0);
  int p = i;
  int steps = 0;
  while (p < n && steps < 50) {
    p = in[p];
    ++steps;
  }
  out[i] = p * 100 + steps;
}

// Values carried around a loop and swapped between iterations.
kernel void phi_swap(global const int *in, global int *out, int n) {
  int i = get_global_id(0);
  uint a = in[i], b = i, c = 7;
  for (int k = 0; k < in[i] % 13; ++k) {
    uint t = a;
    a = b;
    b = c;
    c = t;
    if (k & 1) {
      t = a;
      a = b;
      b = t + 3;
    } else {
      c = c * 5 + a;
    }
  }
  out[i] = a * 31 + b * 7 + c;
}

// Fibonacci-like pair updated in parallel each iteration.
kernel void phi_pair(global const int *in, global int *out, int n) {
  int i = get_global_id(0);
  uint a = 0, b = 1;
  int m = in[i] % 30;
  for (int k = 0; k < m; ++k) {
    uint t = a;
    a = b;
    b = t + b;
  }
  out[i] = a ^ (b << 3);
}

// A value computed in a loop with a divergent exit, used after the loop:
// every work-item sees its own last-iteration value.
kernel void loop_live_out(global const int *in, global int *out, int n) {
  int i = get_global_id(0);
  int target = in[i];
  int v = 0, k = 0;
  for (;; ++k) {
    v = k * k + (i & 15);
    if (v > target)
      break;
  }
  out[i] = v * 1000 + k;
}

// Two exits from the loop with different live-out values.
kernel void loop_two_exits(global const int *in, global int *out, int n) {
  int i = get_global_id(0);
  int x = in[i];
  int r;
  int k = 0;
  while (1) {
    x = (x & 1) ? 3 * x + 1 : x / 2;
    ++k;
    if (x == 1) {
      r = k;
      break;
    }
    if (k >= 20) {
      r = -x;
      break;
    }
  }
  out[i] = r;
}

// Uniform trip count (a kernel argument) with divergent code inside.
kernel void uniform_loop(global const int *in, global int *out, int n) {
  int i = get_global_id(0);
  int v = in[i];
  int s = 0;
  for (int k = 0; k < n; ++k) {
    if ((v + k) & 1)
      s += k;
    else
      s -= v % 7;
    if (k == v % n)
      s *= 2;
  }
  out[i] = s;
}

// A deep if-else chain (instead of a switch) on different conditions.
kernel void if_chain(global const int *in, global int *out, int n) {
  int i = get_global_id(0);
  int v = in[i];
  int r;
  if (v < 100)
    r = v * 3;
  else if (v < 200)
    r = -v;
  else if ((i & 7) == 3)
    r = 7;
  else if (v < 350)
    r = v - i;
  else if (v > 900)
    r = 11;
  else if ((v & 3) == 0)
    r = v / 4;
  else if (i < 50)
    r = i;
  else if (v % 5 == 2)
    r = 12345;
  else
    r = 99;
  out[i] = r;
}

kernel void ternary(global const int *in, global int *out, int n) {
  int i = get_global_id(0);
  int v = in[i];
  int a = (i & 1) ? v : -v;
  int b = v > 500 ? (i > 50 ? 2 * i : 3) : (v < 100 ? v / 3 : 0);
  float f = (v & 4) ? 1.5f : -0.25f;
  out[i] = a + b * 10 + (int)(f * 4.0f);
}

// A helper with a loop and several returns, called from a divergent branch
// (not inlined by clang at -O0).
int helper(int v, int i) {
  for (int k = 0; k < 10; ++k) {
    if (v % (k + 2) == 0)
      return k * 100 + v;
    v += i & 3;
  }
  if (v & 1)
    return -v;
  return v * 2;
}

kernel void call_divergent(global const int *in, global int *out, int n) {
  int i = get_global_id(0);
  int v = in[i];
  int r = 5;
  if (i & 1)
    r = helper(v, i);
  else if (v & 1)
    r = helper(v + 1, 0) + 1;
  out[i] = r;
}

// An irreducible loop: the cycle A <-> B is entered at A or at B.
kernel void irreducible(global const int *in, global int *out, int n) {
  int i = get_global_id(0);
  int v = in[i];
  int s = i & 7;
  int k = v % 6;
  if (v & 1)
    goto B;
A:
  s += 3;
  if (--k <= 0)
    goto done;
B:
  s *= 2;
  if (--k > 0)
    goto A;
done:
  out[i] = s * 10 + k;
}

kernel void do_while(global const int *in, global int *out, int n) {
  int i = get_global_id(0);
  int v = in[i];
  int s = 0;
  do {
    s += v & 15;
    v >>= 1;
  } while (v > (i & 31));
  out[i] = s;
}

// A loop that clang -O2 replaces by a closed form computed in 33-bit
// integers. (The 65-bit case is in control_test.cpp, built from source.)
kernel void closed_form(global const int *in, global int *out, int n) {
  int i = get_global_id(0);
  int v = in[i];
  int s = 0;
  for (int k = 0; k < v % 50; ++k)
    s += k * v + 3;
  out[i] = s;
}

// Work-items whose divisor is 0 (or INT_MIN / -1) do not divide: inactive
// lanes must not trap.
kernel void guarded_division(global const int *in, global int *out, int n) {
  int i = get_global_id(0);
  int v = in[i];
  int d = v % 7 - 3; // 0 for some work-items
  int x = (i & 15) == 5 ? (int)0x80000000 : v * 1000 + i;
  if (i % 16 == 5)
    d = -1;
  int r = -7;
  if (d != 0 && !(x == (int)0x80000000 && d == -1))
    r = x / d;
  uint ud = (uint)(v % 5);
  if (ud)
    r += (uint)x % ud;
  out[i] = r;
}

// Loads through a pointer that is NULL for the work-items that do not load.
kernel void guarded_null_load(global const int *in, global int *out, int n) {
  int i = get_global_id(0);
  global const int *p = (in[i] & 1) ? in + i : 0;
  int r = -1;
  if (p)
    r = *p * 2;
  if (i < n && in[i] > 500) // short-circuit: the load runs only for i < n
    r += 1000;
  out[i] = r;
}

// One work-item of each warp-sized block loops much longer than the others.
kernel void one_long_lane(global const int *in, global int *out, int n) {
  int i = get_global_id(0);
  int trips = (i % 64 == 13) ? 5000 + in[i] : in[i] % 5;
  uint h = (uint)i;
  for (int k = 0; k < trips; ++k)
    h = h * 1664525u + 1013904223u + (uint)k;
  out[i] = (int)h;
}

// Component-wise vector select and dynamic component indexing.
kernel void vector_select(global const int *in, global int *out, int n) {
  int i = get_global_id(0);
  int v = in[i];
  int4 a = (int4)(v, -v, i, v ^ i);
  int4 b = (int4)(1, 2, 3, 4) * v;
  int4 c = a > b ? a : b; // component-wise select
  int4 m = a < 3 ? b : a; // a vector condition selects per component
  int k = v & 3;
  out[i] = c.x + 3 * c.y + 5 * c.z + 7 * c.w + 11 * m[k] + 13 * a[(k + 1) & 3];
}

// Temporal divergence: values that are the same for every active work-item
// inside the loop (computed from the counter and a uniform argument only)
// differ between work-items after a divergent exit.
kernel void temporal_divergence(global const int *in, global int *out, int n) {
  int i = get_global_id(0);
  int limit = in[i] % 64;
  int last = -1, k = 0;
  while (1) {
    last = k * 3 + n;
    if (k * k >= limit)
      break;
    ++k;
  }
  int sum = 0;
  for (int j = 0; j < n; ++j) { // uniform loop; the value assigned is uniform
    if ((in[i] + j) % 4 == 0)   // but the branch is not
      sum = j;
  }
  out[i] = last * 1000 + sum * 10 + k;
}

// A loop inside a divergent `if`, the rows each work-item picks: its
// counter and the values made from it are the same in every lane that
// runs it, and the vector it accumulates into goes through the phis of
// three blocks (the loops' headers and the join of the `if`).
kernel void rows_picked_by_id(global const int *in, global int *out, int n) {
  int i = get_global_id(0);
  int4 acc = (int4)(in[i], 0, 0, 0);
  for (int y = 0; y < 40; ++y)
    if (y % 13 == i % 13)
      for (int x = 0; x < 9; ++x)
        acc = (int4)(x * y) + (int4)(0, 1, 2, 3) + acc.yzwx;
  out[i] = acc.x + 3 * acc.y + 5 * acc.z + 7 * acc.w;
}

// A join that paths from both arms of a divergent branch reach, inside a
// loop, followed by a loop in one arm of another branch: t differs
// between the lanes after the join.
kernel void join_then_loop(global const int *in, global int *out, int n) {
  int i = get_global_id(0);
  int v = in[i], r = 0;
  for (int k = 0; k < 8; ++k) {
    int t;
    if ((v + k) & 1)
      t = k * 3;
    else
      t = v - k;
    if (k & 1)
      for (int j = 0; j < 3; ++j)
        r += t + j;
  }
  out[i] = r;
}

// A value carried through a loop nested in a divergent branch, whose value
// of the iteration before is still read after the inner loop changed it:
// the two may not share a register. And two values that swap in an inner
// loop.
kernel void carried_and_read_after(global const int *in, global int *out, int n) {
  int i = get_global_id(0);
  int v = in[i];
  uint a = v, b = 0, c = 1, d = 2;
  for (int k = 0; k < 6; ++k) {
    uint old = a;
    if (((k ^ i) & 1) != 0)
      for (int j = 0; j < (v & 3) + 1; ++j) {
        a = a * 3 + j;
        uint swap = c;
        c = d;
        d = swap + j;
      }
    b += old;
  }
  out[i] = (int)(a + 7 * b + 11 * c + 13 * d);
}

// SPDX-License-Identifier: Apache-2.0
