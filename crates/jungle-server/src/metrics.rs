//! Prometheus metrics through the `metrics` facade. One recorder per process, shared by every
//! server started in it (tests start several).

use std::sync::OnceLock;

use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};

#[derive(Clone)]
pub struct Metrics {
    handle: PrometheusHandle,
}

static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();

impl Metrics {
    pub fn install() -> Metrics {
        let handle = HANDLE.get_or_init(|| {
            let latency_buckets = [
                0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0,
            ];
            let wait_buckets = [0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 30.0, 60.0, 120.0, 300.0];
            let recorder = PrometheusBuilder::new()
                .set_buckets_for_metric(Matcher::Suffix("_seconds".into()), &latency_buckets)
                .and_then(|b| {
                    b.set_buckets_for_metric(
                        Matcher::Full("jungle_matchmaking_wait_seconds".into()),
                        &wait_buckets,
                    )
                })
                .and_then(|b| {
                    b.set_buckets_for_metric(
                        Matcher::Full("jungle_db_batch_size".into()),
                        &[1.0, 2.0, 5.0, 10.0, 50.0, 100.0, 500.0],
                    )
                })
                .expect("valid buckets")
                .build_recorder();
            let handle = recorder.handle();
            // Another recorder may already be installed (embedding); then ours just renders nothing.
            let _ = metrics::set_global_recorder(recorder);
            handle
        });
        Metrics {
            handle: handle.clone(),
        }
    }

    pub fn render(&self) -> String {
        self.handle.render()
    }
}
