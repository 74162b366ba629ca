//! Criterion benchmarks: move generation and perft.
//! `cargo bench -p stella-engine --bench movegen`

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use stella_engine::{perft, Position, Variant};

fn midgame() -> Position {
    "classic-2 white 21 white:h6,i6,j4,j5,j6,k6,l3,l4,m1,m3 black:e14,e15,e16,e17,f15,g15,h13,i9,i13,j11 made:20,20"
        .parse()
        .unwrap()
}

fn bench(c: &mut Criterion) {
    let start = Position::start(Variant::Classic2);
    let mid = midgame();
    c.bench_function("legal_moves start classic-2", |b| {
        b.iter(|| black_box(&start).legal_moves())
    });
    c.bench_function("legal_moves midgame classic-2", |b| {
        b.iter(|| black_box(&mid).legal_moves())
    });
    c.bench_function("count_moves midgame classic-2", |b| {
        b.iter(|| black_box(&mid).count_moves())
    });
    let mut g = c.benchmark_group("perft");
    g.sample_size(10);
    g.bench_function("perft 4 classic-2", |b| {
        b.iter(|| perft(black_box(&start), 4))
    });
    g.bench_function("perft 3 midgame classic-2", |b| {
        b.iter(|| perft(black_box(&mid), 3))
    });
    g.finish();
}

mod group {
    #![allow(missing_docs)]
    use super::*;
    criterion_group!(benches, bench);
}

criterion_main!(group::benches);
