//! Throughput of `toolsift-text`: analyzing the tool texts of all 70 copied catalogs.
//!
//! What's measured: `Analyzer::for_each_token` over every tool description (and, separately,
//! every tool name) of one catalog kind, one call per text as an indexer makes them, with the
//! default analyzer (light stemmer) and with the Snowball stemmer. Group `text/analyze` measures
//! wall time; group `text/analyze-cpu` measures the CPU time of the benchmark thread
//! (`benches::CpuTime`), which stays meaningful when other processes share the machine.
//!
//! Corpus: `xtask/tuning/catalogs/{mcp,openapi,plugin}` read by `benches::catalog_texts` once,
//! before timing. Throughput is in bytes of input text, so reports read as MiB/s.
//!
//! Each iteration counts the tokens and asserts the count found before timing started, so a
//! bench that silently does no work fails.

use std::hint::black_box;

use benches::CpuTime;
use criterion::measurement::Measurement;
use criterion::{
    BenchmarkId, Criterion, SamplingMode, Throughput, criterion_group, criterion_main,
};
use toolsift_text::{Analyzer, SnowballStemmer};

/// One named input: a list of texts analyzed one by one.
struct Input {
    name: String,
    texts: Vec<String>,
}

/// The inputs: descriptions per kind, all descriptions together, and all tool names.
fn inputs() -> Vec<Input> {
    let kinds = benches::catalog_texts();
    let mut inputs: Vec<Input> = kinds
        .iter()
        .map(|k| Input { name: format!("descriptions/{}", k.kind), texts: k.descriptions.clone() })
        .collect();
    inputs.push(Input {
        name: "descriptions/all".to_owned(),
        texts: kinds.iter().flat_map(|k| k.descriptions.iter().cloned()).collect(),
    });
    inputs.push(Input {
        name: "names/all".to_owned(),
        texts: kinds.iter().flat_map(|k| k.names.iter().cloned()).collect(),
    });
    inputs
}

/// Counts the tokens of all `texts`.
fn count_tokens(analyzer: &Analyzer, texts: &[String]) -> usize {
    let mut count = 0;
    for text in texts {
        analyzer.for_each_token(text, |token| {
            black_box(token);
            count += 1;
        });
    }
    count
}

/// Benchmarks every input with both stemmers in the group `name`.
fn analyze<M: Measurement>(c: &mut Criterion<M>, name: &str, mode: SamplingMode) {
    let analyzers = [
        ("light", Analyzer::default()),
        ("snowball", Analyzer::builder().stemmer(SnowballStemmer::new()).build()),
    ];
    let mut group = c.benchmark_group(name);
    group.sampling_mode(mode);
    for input in inputs() {
        let bytes: usize = input.texts.iter().map(String::len).sum();
        assert!(bytes > 0, "{} is empty", input.name);
        group.throughput(Throughput::Bytes(bytes as u64));
        for (stemmer, analyzer) in &analyzers {
            let expected = count_tokens(analyzer, &input.texts);
            assert!(expected > input.texts.len(), "{} gives only {expected} tokens", input.name);
            let id = BenchmarkId::new(*stemmer, &input.name);
            group.bench_with_input(id, &input.texts, |b, texts| {
                b.iter(|| assert_eq!(count_tokens(analyzer, black_box(texts)), expected));
            });
        }
    }
    group.finish();
}

/// Wall time.
fn analyze_wall(c: &mut Criterion) {
    analyze(c, "text/analyze", SamplingMode::Auto);
}

/// CPU time of the benchmark thread.
///
/// The kernel advances a thread's CPU time in scheduler ticks (a few milliseconds), so every
/// sample runs the same, large number of iterations (flat sampling, 20 samples of about 250 ms)
/// rather than criterion's default ramp that starts at one iteration.
fn analyze_cpu(c: &mut Criterion<CpuTime>) {
    analyze(c, "text/analyze-cpu", SamplingMode::Flat);
}

criterion_group!(wall, analyze_wall);
criterion_group! {
    name = cpu;
    config = Criterion::default().with_measurement(CpuTime).sample_size(20);
    targets = analyze_cpu
}
criterion_main!(wall, cpu);
