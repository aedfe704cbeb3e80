//! OTLP/HTTP export: the SDK's batch processor and OTLP exporter, posting with hyper.

use std::time::Duration;

use bytes::Bytes;
use http::{Request, Response};
use http_body_util::{BodyExt as _, Full, Limited};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use opentelemetry::trace::TracerProvider as _;
use opentelemetry_http::{HttpClient, HttpError};
use opentelemetry_otlp::{Protocol, WithExportConfig as _, WithHttpConfig as _};
use opentelemetry_sdk::Resource;
use opentelemetry_sdk::trace::{BatchConfigBuilder, BatchSpanProcessor, SdkTracerProvider};

use crate::{A2aIdGenerator, Error, OtelLayer};

/// The default of [`OtlpConfig::max_queue_size`]: spans ended and not yet exported, at most.
pub const DEFAULT_MAX_QUEUE_SIZE: usize = 2048;
/// The default of [`OtlpConfig::max_export_batch_size`].
pub const DEFAULT_MAX_EXPORT_BATCH_SIZE: usize = 512;
/// The default of [`OtlpConfig::export_timeout`].
pub const DEFAULT_EXPORT_TIMEOUT: Duration = Duration::from_secs(10);
/// The default of [`OtlpConfig::scheduled_delay`].
pub const DEFAULT_SCHEDULED_DELAY: Duration = Duration::from_secs(5);
/// The most of a collector's answer read (its body is an `ExportTraceServiceResponse`, a few
/// bytes); a longer one fails the export.
pub const MAX_RESPONSE_BYTES: usize = 64 * 1024;
/// The environment variable of the collector's base URL (the OpenTelemetry one).
pub const ENDPOINT_ENV: &str = "OTEL_EXPORTER_OTLP_ENDPOINT";

/// Where and how spans are exported: OTLP over HTTP with protobuf bodies.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct OtlpConfig {
    /// The collector's URL, `http://HOST:PORT` (OTLP/HTTP's port is 4318): spans are posted
    /// to its `/v1/traces` (a URL whose path already ends with `/v1/traces` is used as is).
    pub endpoint: String,
    /// The `service.name` of the exported resource.
    pub service_name: String,
    /// Spans ended and waiting for export, at most ([`DEFAULT_MAX_QUEUE_SIZE`]): when the
    /// queue is full (the collector is slow or away), further spans are dropped.
    pub max_queue_size: usize,
    /// Spans per export request, at most ([`DEFAULT_MAX_EXPORT_BATCH_SIZE`]).
    pub max_export_batch_size: usize,
    /// How long one export (connect, post, answer, retries) may take
    /// ([`DEFAULT_EXPORT_TIMEOUT`]); its spans are dropped after it.
    pub export_timeout: Duration,
    /// How long spans wait for a batch to fill before they are exported anyway
    /// ([`DEFAULT_SCHEDULED_DELAY`]).
    pub scheduled_delay: Duration,
}

impl OtlpConfig {
    /// Export to `endpoint` as `service_name`, with the default bounds.
    pub fn new(endpoint: impl Into<String>, service_name: impl Into<String>) -> Self {
        Self {
            endpoint: endpoint.into(),
            service_name: service_name.into(),
            max_queue_size: DEFAULT_MAX_QUEUE_SIZE,
            max_export_batch_size: DEFAULT_MAX_EXPORT_BATCH_SIZE,
            export_timeout: DEFAULT_EXPORT_TIMEOUT,
            scheduled_delay: DEFAULT_SCHEDULED_DELAY,
        }
    }

    /// The configuration of [`ENDPOINT_ENV`] when it is set and not empty.
    pub fn from_env(service_name: impl Into<String>) -> Option<Self> {
        std::env::var(ENDPOINT_ENV)
            .ok()
            .filter(|endpoint| !endpoint.trim().is_empty())
            .map(|endpoint| Self::new(endpoint.trim(), service_name))
    }

    /// With at most `spans` spans waiting for export.
    #[must_use]
    pub fn with_max_queue_size(mut self, spans: usize) -> Self {
        self.max_queue_size = spans;
        self
    }

    /// With at most `spans` spans per export request.
    #[must_use]
    pub fn with_max_export_batch_size(mut self, spans: usize) -> Self {
        self.max_export_batch_size = spans;
        self
    }

    /// With exports that take at most `timeout`.
    #[must_use]
    pub fn with_export_timeout(mut self, timeout: Duration) -> Self {
        self.export_timeout = timeout;
        self
    }

    /// With batches sent after at most `delay`.
    #[must_use]
    pub fn with_scheduled_delay(mut self, delay: Duration) -> Self {
        self.scheduled_delay = delay;
        self
    }

    /// The URL spans are posted to.
    ///
    /// # Errors
    ///
    /// Not a URL, not `http://` (the exporter has no TLS), or no host.
    pub fn traces_url(&self) -> Result<http::Uri, Error> {
        let given = self.endpoint.trim();
        let uri: http::Uri = given.parse().map_err(|err| {
            Error::new(format!("the OTLP endpoint `{given}` is not a URL: {err}"))
        })?;
        match uri.scheme_str() {
            Some("http") => {}
            Some("https") => {
                return Err(Error::new(format!(
                    "the OTLP endpoint `{given}` is https: the exporter speaks plain HTTP only \
                     (run a collector next to the process, e.g. http://127.0.0.1:4318)"
                )));
            }
            _ => {
                return Err(Error::new(format!(
                    "the OTLP endpoint `{given}` must be an http:// URL (e.g. http://127.0.0.1:4318)"
                )));
            }
        }
        if uri.host().is_none_or(str::is_empty) {
            return Err(Error::new(format!(
                "the OTLP endpoint `{given}` names no host"
            )));
        }
        if uri.path().trim_end_matches('/').ends_with("/v1/traces") {
            return Ok(uri);
        }
        let url = format!("{}/v1/traces", given.trim_end_matches('/'));
        url.parse()
            .map_err(|err| Error::new(format!("the OTLP endpoint `{given}` is not a URL: {err}")))
    }
}

/// The hyper client the exporter posts with. The SDK's batch processor exports from a thread
/// of its own, outside any Tokio runtime: each post runs as a task of the runtime [`Otlp`] was
/// started in.
#[derive(Debug)]
struct HyperPost {
    client: Client<HttpConnector, Full<Bytes>>,
    runtime: tokio::runtime::Handle,
    timeout: Duration,
}

#[async_trait::async_trait]
impl HttpClient for HyperPost {
    async fn send_bytes(&self, request: Request<Bytes>) -> Result<Response<Bytes>, HttpError> {
        let (client, timeout) = (self.client.clone(), self.timeout);
        let post = async move {
            let response = client.request(request.map(Full::new)).await?;
            let (head, body) = response.into_parts();
            let body = Limited::new(body, MAX_RESPONSE_BYTES).collect().await?;
            Ok::<_, HttpError>(Response::from_parts(head, body.to_bytes()))
        };
        let task = self
            .runtime
            .spawn(async move { tokio::time::timeout(timeout, post).await });
        match task.await? {
            Ok(answer) => answer,
            Err(_) => Err(format!("the OTLP export took longer than {timeout:?}").into()),
        }
    }
}

/// OTLP export of a2a-rs's spans: the tracer provider (batching, bounded) and its layer.
/// Keep it for the life of the process and [`shutdown`](Self::shutdown) it at the end, or the
/// spans of the last seconds are lost.
#[derive(Debug)]
pub struct Otlp {
    provider: SdkTracerProvider,
}

impl Otlp {
    /// Starts exporting: a tracer provider with [`A2aIdGenerator`], a batch processor of
    /// `config`'s bounds and the OTLP/HTTP exporter posting to [`OtlpConfig::traces_url`].
    /// Nothing is sent until spans end; an unreachable collector only loses spans.
    ///
    /// # Errors
    ///
    /// Outside a Tokio runtime, or a bad endpoint ([`OtlpConfig::traces_url`]), or a zero
    /// queue size or batch size.
    pub fn start(config: &OtlpConfig) -> Result<Self, Error> {
        let runtime = tokio::runtime::Handle::try_current().map_err(|_| {
            Error::new("OTLP export must be started inside a Tokio runtime".to_owned())
        })?;
        if config.max_queue_size == 0 || config.max_export_batch_size == 0 {
            return Err(Error::new(
                "the OTLP queue size and batch size must be at least 1".to_owned(),
            ));
        }
        let url = config.traces_url()?;
        let post = HyperPost {
            client: Client::builder(TokioExecutor::new()).build_http(),
            runtime,
            timeout: config.export_timeout,
        };
        let exporter = opentelemetry_otlp::SpanExporter::builder()
            .with_http()
            .with_http_client(post)
            .with_protocol(Protocol::HttpBinary)
            .with_endpoint(url.to_string())
            .with_timeout(config.export_timeout)
            .build()
            .map_err(|err| Error::new(format!("the OTLP exporter: {err}")))?;
        let batch = BatchConfigBuilder::default()
            .with_max_queue_size(config.max_queue_size)
            .with_max_export_batch_size(config.max_export_batch_size.min(config.max_queue_size))
            .with_scheduled_delay(config.scheduled_delay)
            .build();
        let processor = BatchSpanProcessor::builder(exporter)
            .with_batch_config(batch)
            .build();
        let provider = SdkTracerProvider::builder()
            .with_id_generator(A2aIdGenerator::default())
            .with_span_processor(processor)
            .with_resource(
                Resource::builder_empty()
                    .with_service_name(config.service_name.clone())
                    .build(),
            )
            .build();
        Ok(Self { provider })
    }

    /// The layer that makes `tracing` spans spans of this exporter: add it to the
    /// subscriber (`tracing_subscriber::registry().with(otlp.layer())`).
    pub fn layer(&self) -> OtelLayer {
        OtelLayer::new(self.provider.tracer("a2a-rs"))
    }

    /// The tracer provider (for tracers of the application's own).
    pub fn provider(&self) -> &SdkTracerProvider {
        &self.provider
    }

    /// Exports every span ended so far, waiting for the collector's answer (at most the
    /// export timeout).
    ///
    /// # Errors
    ///
    /// The export failed (the collector is away or refused).
    pub async fn flush(&self) -> Result<(), Error> {
        let provider = self.provider.clone();
        // The SDK blocks this thread until its export thread is done, and that thread waits
        // for a task of this runtime.
        tokio::task::spawn_blocking(move || provider.force_flush())
            .await
            .map_err(|err| Error::new(format!("the OTLP flush: {err}")))?
            .map_err(|err| Error::new(format!("the OTLP flush: {err}")))
    }

    /// Exports what is left and stops: spans that end later are not exported.
    ///
    /// # Errors
    ///
    /// The last export failed (the collector is away or refused).
    pub async fn shutdown(self) -> Result<(), Error> {
        let provider = self.provider;
        // A flush first: the SDK's shutdown does not report a failed last export.
        tokio::task::spawn_blocking(move || {
            let flushed = provider.force_flush();
            let stopped = provider.shutdown();
            flushed.and(stopped)
        })
        .await
        .map_err(|err| Error::new(format!("the OTLP shutdown: {err}")))?
        .map_err(|err| Error::new(format!("the OTLP shutdown: {err}")))
    }
}
