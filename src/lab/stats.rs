//! The statistics the lab needs, written out so that each is unit-tested
//! against known values: Wilson intervals, summary spreads, the two tests
//! of `ball compare` (two-proportion z, Welch's t), the intervals of its
//! differences (Newcombe's hybrid score interval, Welch's interval) and
//! the Holm–Bonferroni correction over its rows.

use serde::Serialize;

/// z for a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// A proportion with its 95% Wilson score interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Interval {
    pub p: f64,
    pub lo: f64,
    pub hi: f64,
}

/// The Wilson score interval of `successes` out of `n` (successes may be
/// fractional: a draw counts ½). Unlike the normal ("Wald") interval it
/// stays inside [0, 1] and is sound at 0 % and 100 % and for small `n`.
/// With `n` = 0 there is no information: [0, 1] around 0.5.
pub fn wilson(successes: f64, n: usize) -> Interval {
    if n == 0 {
        return Interval {
            p: 0.5,
            lo: 0.0,
            hi: 1.0,
        };
    }
    let n = n as f64;
    let p = successes / n;
    let z2 = Z95 * Z95;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = Z95 / denom * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    Interval {
        p,
        lo: (centre - half).max(0.0),
        hi: (centre + half).min(1.0),
    }
}

/// Mean, median and spread of a sample.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Spread {
    pub mean: f64,
    pub median: f64,
    /// Sample standard deviation (n − 1); 0 for fewer than two values.
    pub sd: f64,
    pub min: f64,
    pub max: f64,
}

pub fn spread(values: &[f64]) -> Spread {
    if values.is_empty() {
        return Spread {
            mean: 0.0,
            median: 0.0,
            sd: 0.0,
            min: 0.0,
            max: 0.0,
        };
    }
    let n = values.len();
    let mean = values.iter().sum::<f64>() / n as f64;
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let median = if n % 2 == 1 {
        sorted[n / 2]
    } else {
        (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0
    };
    Spread {
        mean,
        median,
        sd: variance(values).sqrt(),
        min: sorted[0],
        max: sorted[n - 1],
    }
}

/// Sample variance (n − 1); 0 for fewer than two values.
pub fn variance(values: &[f64]) -> f64 {
    let n = values.len();
    if n < 2 {
        return 0.0;
    }
    let mean = values.iter().sum::<f64>() / n as f64;
    values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1) as f64
}

/// The two-sided p-value of the pooled two-proportion z-test:
/// H0 `x1/n1 = x2/n2`. When both samples are all-success or
/// all-failure there is no difference to test: p = 1.
pub fn two_proportion_p(x1: f64, n1: usize, x2: f64, n2: usize) -> f64 {
    if n1 == 0 || n2 == 0 {
        return 1.0;
    }
    let (n1f, n2f) = (n1 as f64, n2 as f64);
    let pooled = (x1 + x2) / (n1f + n2f);
    let se = (pooled * (1.0 - pooled) * (1.0 / n1f + 1.0 / n2f)).sqrt();
    if se == 0.0 {
        return 1.0;
    }
    let z = (x1 / n1f - x2 / n2f) / se;
    // erfc's fit is off by up to 1.2e-7 near 0: a p-value above 1 would
    // pass through Holm's min(1, ·) below its own raw value.
    erfc(z.abs() / std::f64::consts::SQRT_2).min(1.0)
}

/// The two-sided p-value of Welch's t-test (unequal variances) for equal
/// means. Two constant samples: p = 1 if the means agree, else 0.
pub fn welch_p(a: &[f64], b: &[f64]) -> f64 {
    if a.len() < 2 || b.len() < 2 {
        return 1.0;
    }
    let (na, nb) = (a.len() as f64, b.len() as f64);
    let ma = a.iter().sum::<f64>() / na;
    let mb = b.iter().sum::<f64>() / nb;
    let (va, vb) = (variance(a) / na, variance(b) / nb);
    if va + vb == 0.0 {
        return if ma == mb { 1.0 } else { 0.0 };
    }
    let t = (ma - mb) / (va + vb).sqrt();
    let df = (va + vb).powi(2) / (va * va / (na - 1.0) + vb * vb / (nb - 1.0));
    student_t_two_sided(t, df)
}

/// A 95% interval for a difference: `d` the estimate, `[lo, hi]` around
/// it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct DiffInterval {
    pub d: f64,
    pub lo: f64,
    pub hi: f64,
}

/// Newcombe's hybrid score interval (Newcombe 1998, method 10) for the
/// difference p₂ − p₁ of two independent proportions `x1/n1` and `x2/n2`.
/// It combines the two Wilson intervals, so it inherits their soundness
/// near 0 % and 100 %, where the Wald interval p̂ ± z·se collapses to a
/// point (0/10 vs 0/10 would give [0, 0]). `None` when a side has no
/// games.
pub fn newcombe_diff(x1: f64, n1: usize, x2: f64, n2: usize) -> Option<DiffInterval> {
    if n1 == 0 || n2 == 0 {
        return None;
    }
    let (a, b) = (wilson(x1, n1), wilson(x2, n2));
    let d = b.p - a.p;
    Some(DiffInterval {
        d,
        lo: d - ((b.p - b.lo).powi(2) + (a.hi - a.p).powi(2)).sqrt(),
        hi: d + ((b.hi - b.p).powi(2) + (a.p - a.lo).powi(2)).sqrt(),
    })
}

/// Welch's 95% interval for the difference of means mean(b) − mean(a):
/// d ± t₀.₉₇₅(ν)·√(s²_a/n_a + s²_b/n_b), ν by Welch–Satterthwaite — the
/// interval that matches [`welch_p`] (it excludes 0 exactly when p <
/// 0.05). Two constant samples give [d, d]. `None` with fewer than two
/// values a side (no variance to estimate).
pub fn welch_diff(a: &[f64], b: &[f64]) -> Option<DiffInterval> {
    if a.len() < 2 || b.len() < 2 {
        return None;
    }
    let (na, nb) = (a.len() as f64, b.len() as f64);
    let d = b.iter().sum::<f64>() / nb - a.iter().sum::<f64>() / na;
    let (va, vb) = (variance(a) / na, variance(b) / nb);
    if va + vb == 0.0 {
        return Some(DiffInterval { d, lo: d, hi: d });
    }
    let df = (va + vb).powi(2) / (va * va / (na - 1.0) + vb * vb / (nb - 1.0));
    let half = student_t_quantile(0.05, df) * (va + vb).sqrt();
    Some(DiffInterval {
        d,
        lo: d - half,
        hi: d + half,
    })
}

/// The t > 0 with P(|T| ≥ t) = `alpha` for Student's t with `df`
/// degrees of freedom (for `alpha` = 0.05, the 97.5 % point), by bisection
/// on [`student_t_two_sided`], which falls monotonically in t.
pub fn student_t_quantile(alpha: f64, df: f64) -> f64 {
    let mut hi = 2.0;
    while student_t_two_sided(hi, df) > alpha && hi < 1e12 {
        hi *= 2.0;
    }
    let mut lo = 0.0;
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if student_t_two_sided(mid, df) > alpha {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// Holm–Bonferroni adjusted p-values, in the order given: with the m
/// p-values sorted p₍₁₎ ≤ … ≤ p₍ₘ₎, p̃₍ᵢ₎ = max over j ≤ i of
/// min(1, (m − j + 1)·p₍ⱼ₎). Rejecting where p̃ < α keeps the chance of
/// any false "significant" among the m at most α whatever their
/// dependence, and rejects at least what plain Bonferroni (m·p) does.
pub fn holm(p: &[f64]) -> Vec<f64> {
    let m = p.len();
    let mut order: Vec<usize> = (0..m).collect();
    // Stable, so equal p-values keep their order and the result is a
    // function of the input alone.
    order.sort_by(|&i, &j| p[i].total_cmp(&p[j]));
    let mut adjusted = vec![0.0; m];
    let mut running: f64 = 0.0;
    for (rank, &i) in order.iter().enumerate() {
        running = running.max(((m - rank) as f64 * p[i]).min(1.0));
        adjusted[i] = running;
    }
    adjusted
}

/// P(|T| ≥ |t|) for Student's t with `df` degrees of freedom:
/// I_{df/(df+t²)}(df/2, 1/2).
pub fn student_t_two_sided(t: f64, df: f64) -> f64 {
    beta_inc(df / 2.0, 0.5, df / (df + t * t))
}

/// The complementary error function, |relative error| < 1.2e-7
/// (Numerical Recipes' Chebyshev fit).
pub fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let r = t
        * (-z * z - 1.265_512_23
            + t * (1.000_023_68
                + t * (0.374_091_96
                    + t * (0.096_784_18
                        + t * (-0.186_288_06
                            + t * (0.278_868_07
                                + t * (-1.135_203_98
                                    + t * (1.488_515_87
                                        + t * (-0.822_152_23 + t * 0.170_872_77)))))))))
            .exp();
    if x >= 0.0 { r } else { 2.0 - r }
}

/// ln Γ(x) for x > 0 (Lanczos, g = 7).
fn ln_gamma(x: f64) -> f64 {
    const C: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        // Reflection.
        let pi = std::f64::consts::PI;
        return (pi / (pi * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let mut a = C[0];
    let t = x + 7.5;
    for (i, c) in C.iter().enumerate().skip(1) {
        a += c / (x + i as f64);
    }
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + a.ln()
}

/// The regularized incomplete beta function I_x(a, b).
pub fn beta_inc(a: f64, b: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    if x >= 1.0 {
        return 1.0;
    }
    let front =
        (ln_gamma(a + b) - ln_gamma(a) - ln_gamma(b) + a * x.ln() + b * (1.0 - x).ln()).exp();
    if x < (a + 1.0) / (a + b + 2.0) {
        front * beta_cf(a, b, x) / a
    } else {
        1.0 - front * beta_cf(b, a, 1.0 - x) / b
    }
}

/// The continued fraction of the incomplete beta (modified Lentz).
fn beta_cf(a: f64, b: f64, x: f64) -> f64 {
    const TINY: f64 = 1e-300;
    let (qab, qap, qam) = (a + b, a + 1.0, a - 1.0);
    let mut c = 1.0;
    let mut d = 1.0 - qab * x / qap;
    if d.abs() < TINY {
        d = TINY;
    }
    d = 1.0 / d;
    let mut h = d;
    for m in 1..300 {
        let m = f64::from(m);
        let m2 = 2.0 * m;
        let aa = m * (b - m) * x / ((qam + m2) * (a + m2));
        d = 1.0 + aa * d;
        if d.abs() < TINY {
            d = TINY;
        }
        c = 1.0 + aa / c;
        if c.abs() < TINY {
            c = TINY;
        }
        d = 1.0 / d;
        h *= d * c;
        let aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
        d = 1.0 + aa * d;
        if d.abs() < TINY {
            d = TINY;
        }
        c = 1.0 + aa / c;
        if c.abs() < TINY {
            c = TINY;
        }
        d = 1.0 / d;
        let del = d * c;
        h *= del;
        if (del - 1.0).abs() < 1e-15 {
            break;
        }
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    /// Reference values: Wilson (1927); e.g. 81/263 → [0.2553, 0.3662]
    /// (Newcombe 1998, table I), 0/10 → [0, 0.2775], 10/10 → [0.7225, 1].
    #[test]
    fn wilson_known_values() {
        let i = wilson(81.0, 263);
        assert!(close(i.p, 0.30798, 1e-4));
        assert!(close(i.lo, 0.2553, 1e-4), "{i:?}");
        assert!(close(i.hi, 0.3662, 1e-4), "{i:?}");
        let i = wilson(0.0, 10);
        assert_eq!(i.lo, 0.0);
        assert!(close(i.hi, 0.2775, 1e-4), "{i:?}");
        let i = wilson(10.0, 10);
        assert!(close(i.lo, 0.7225, 1e-4), "{i:?}");
        assert!(close(i.hi, 1.0, 1e-12));
        let i = wilson(0.0, 0);
        assert_eq!((i.lo, i.hi), (0.0, 1.0));
        // Symmetric: x/n and (n-x)/n mirror each other.
        let (a, b) = (wilson(3.0, 20), wilson(17.0, 20));
        assert!(close(a.lo, 1.0 - b.hi, 1e-12) && close(a.hi, 1.0 - b.lo, 1e-12));
    }

    #[test]
    fn spread_known_values() {
        let s = spread(&[2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]);
        assert_eq!(s.mean, 5.0);
        assert_eq!(s.median, 4.5);
        assert!(close(s.sd, (32.0f64 / 7.0).sqrt(), 1e-12));
        assert_eq!((s.min, s.max), (2.0, 9.0));
        assert_eq!(spread(&[3.0, 1.0, 2.0]).median, 2.0);
        assert_eq!(spread(&[]).mean, 0.0);
        assert_eq!(spread(&[7.0]).sd, 0.0);
    }

    #[test]
    fn erfc_known_values() {
        assert!(close(erfc(0.0), 1.0, 1e-7));
        assert!(close(erfc(1.0), 0.157_299_207, 1e-7));
        assert!(close(erfc(-1.0), 1.842_700_793, 1e-7));
        // z = 1.96 → two-sided p = 0.05.
        assert!(close(erfc(Z95 / std::f64::consts::SQRT_2), 0.05, 1e-6));
    }

    /// Student t: t = 2.228 at 10 df is the 97.5 % point (p = 0.05);
    /// t = 1 at 1 df (Cauchy) has p = 0.5 exactly.
    #[test]
    fn student_t_known_values() {
        assert!(close(student_t_two_sided(2.228_138_85, 10.0), 0.05, 1e-6));
        assert!(close(student_t_two_sided(1.0, 1.0), 0.5, 1e-9));
        assert!(close(student_t_two_sided(0.0, 5.0), 1.0, 1e-12));
        // Large df tends to the normal.
        assert!(close(student_t_two_sided(Z95, 1e6), 0.05, 1e-4));
    }

    /// 60/100 vs 40/100: z = 0.2/√(0.5·0.5·0.02) = 2.828, p = 0.00468.
    #[test]
    fn two_proportion_known_values() {
        assert!(close(
            two_proportion_p(60.0, 100, 40.0, 100),
            0.004_678,
            1e-5
        ));
        assert!(close(two_proportion_p(50.0, 100, 50.0, 100), 1.0, 1e-6));
        assert!(two_proportion_p(50.0, 100, 50.0, 100) <= 1.0);
        assert_eq!(two_proportion_p(0.0, 10, 0.0, 10), 1.0);
        assert_eq!(two_proportion_p(1.0, 0, 0.0, 10), 1.0);
    }

    /// Welch on [1..5] vs [3..7]: t = −2/√1 = −2, df = 8, p = 0.0805.
    #[test]
    fn welch_known_values() {
        let a = [1.0, 2.0, 3.0, 4.0, 5.0];
        let b = [3.0, 4.0, 5.0, 6.0, 7.0];
        assert!(
            close(welch_p(&a, &b), 0.080_516, 1e-5),
            "{}",
            welch_p(&a, &b)
        );
        assert!(close(welch_p(&a, &a), 1.0, 1e-12));
        assert_eq!(welch_p(&[2.0, 2.0], &[3.0, 3.0]), 0.0);
        assert_eq!(welch_p(&[2.0, 2.0], &[2.0, 2.0]), 1.0);
    }

    /// Newcombe (1998), table II, method 10 (the hybrid score interval),
    /// for p₁ − p₂; ours is b − a, so the pairs are given as (b, a).
    #[test]
    fn newcombe_known_values() {
        for ((x1, n1, x2, n2), (lo, hi)) in [
            ((56.0, 70, 48.0, 80), (0.0524, 0.3339)),
            ((9.0, 10, 3.0, 10), (0.1705, 0.8090)),
            ((5.0, 56, 0.0, 29), (-0.0381, 0.1926)),
            ((0.0, 10, 0.0, 20), (-0.1611, 0.2775)),
            ((0.0, 10, 0.0, 10), (-0.2775, 0.2775)),
            ((10.0, 10, 0.0, 20), (0.6791, 1.0000)),
            ((10.0, 10, 0.0, 10), (0.6075, 1.0000)),
        ] {
            let i = newcombe_diff(x2, n2, x1, n1).unwrap();
            assert!(close(i.d, x1 / n1 as f64 - x2 / n2 as f64, 1e-12));
            assert!(close(i.lo, lo, 5e-5), "{x1}/{n1} − {x2}/{n2}: {i:?}");
            assert!(close(i.hi, hi, 5e-5), "{x1}/{n1} − {x2}/{n2}: {i:?}");
        }
        // Swapping the sides mirrors the interval.
        let (a, b) = (
            newcombe_diff(48.0, 80, 56.0, 70).unwrap(),
            newcombe_diff(56.0, 70, 48.0, 80).unwrap(),
        );
        assert!(close(a.lo, -b.hi, 1e-12) && close(a.hi, -b.lo, 1e-12));
        assert!(newcombe_diff(1.0, 0, 1.0, 2).is_none());
    }

    /// Student's t 97.5 % points from the printed tables: 12.706 (1 df),
    /// 2.306 (8), 2.228 (10), 2.042 (30); and 1.960 in the limit.
    #[test]
    fn t_quantile_known_values() {
        for (df, t) in [
            (1.0, 12.706_205),
            (8.0, 2.306_004),
            (10.0, 2.228_139),
            (30.0, 2.042_272),
            (1e7, Z95),
        ] {
            let q = student_t_quantile(0.05, df);
            assert!(close(q, t, 1e-5), "df {df}: {q}");
        }
        // 99 % two-sided at 10 df: 3.169.
        assert!(close(student_t_quantile(0.01, 10.0), 3.169_273, 1e-5));
    }

    /// Welch on [1..5] vs [3..7]: d = 2, se = 1, ν = 8, so
    /// 2 ± 2.306004 = [−0.306004, 4.306004]; it contains 0, as p = 0.0805
    /// says. Unequal sizes and variances: [1, 2, 3] (var 1) vs [2, 6, 10,
    /// 14] (var 26.67): d = 6, se² = 1/3 + 20/3 = 7, ν = 49/(1/18 +
    /// 400/27) = 3.2941…, t₀.₉₇₅(ν) from the bisection, checked against
    /// the p-value: the bound is where Welch's test gives p = 0.05.
    #[test]
    fn welch_interval_known_values() {
        let a = [1.0, 2.0, 3.0, 4.0, 5.0];
        let b = [3.0, 4.0, 5.0, 6.0, 7.0];
        let i = welch_diff(&a, &b).unwrap();
        assert_eq!(i.d, 2.0);
        assert!(close(i.lo, -0.306_004, 1e-5), "{i:?}");
        assert!(close(i.hi, 4.306_004, 1e-5), "{i:?}");
        let (a, b) = ([1.0, 2.0, 3.0], [2.0, 6.0, 10.0, 14.0]);
        let i = welch_diff(&a, &b).unwrap();
        assert!(close(i.d, 6.0, 1e-12));
        let df = 49.0 / (1.0 / 18.0 + 400.0 / 27.0);
        let half = student_t_quantile(0.05, df) * 7f64.sqrt();
        assert!(close(i.hi - i.d, half, 1e-9) && close(i.d - i.lo, half, 1e-9));
        // Shifting b by the half-width puts its mean on the bound: p = 0.05.
        let shifted: Vec<f64> = b.iter().map(|v| v - i.lo).collect();
        assert!(close(welch_p(&a, &shifted), 0.05, 1e-6));
        assert_eq!(
            welch_diff(&[2.0, 2.0], &[3.0, 3.0]),
            Some(DiffInterval {
                d: 1.0,
                lo: 1.0,
                hi: 1.0
            })
        );
        assert!(welch_diff(&[1.0], &[1.0, 2.0]).is_none());
    }

    /// By hand: p = (0.01, 0.04, 0.03, 0.005), m = 4. Sorted: 0.005·4 =
    /// 0.02, 0.01·3 = 0.03, 0.03·2 = 0.06, 0.04·1 = 0.04 → max so far 0.06.
    #[test]
    fn holm_known_values() {
        let adj = holm(&[0.01, 0.04, 0.03, 0.005]);
        for (got, want) in adj.iter().zip([0.03, 0.06, 0.06, 0.02]) {
            assert!(close(*got, want, 1e-12), "{adj:?}");
        }
        // Capped at 1; one p-value is its own adjustment; none, none.
        assert_eq!(holm(&[0.6, 0.9]), vec![1.0, 1.0]);
        assert_eq!(holm(&[0.2]), vec![0.2]);
        assert!(holm(&[]).is_empty());
        // Ties keep their order and share their adjustment.
        assert_eq!(holm(&[0.01, 0.01]), vec![0.02, 0.02]);
    }
}
