//! Requests being received, counted per address (issue 49). An honest client sends a
//! request's head in one packet and its body (a few hundred bytes) in the next: a request is
//! "being received" for microseconds. A slowloris keeps it so for the whole header timeout,
//! and each such connection holds hyper's buffers (about 13 KiB with a head begun, 17 KiB with a
//! body stalled: docs/benchmarks.md). So beyond the cap on connections an address may open,
//! at most [`HEADS_PER_ADDRESS`] of its connections may be in the middle of sending a head,
//! and at most as many in the middle of sending a body (`request_body.rs`): 2,000 stalled
//! connections from 50 addresses become 800 at most, the rest closed as they begin.
//!
//! [`HeadWatched`] sees the head begin (bytes read while no request is in hand) and takes a
//! place for it; the place is given back when hyper hands the request to us
//! ([`Receiving::head_arrived`]). A write ends the request in hand (its answer is going
//! out), so the next bytes read begin a new head. An upgraded socket is no longer watched.

use std::io;
use std::net::IpAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

use crate::ip_limits::{IpLimits, IpSlot};

/// Connections of one address that may be sending a request's head at once.
pub const HEADS_PER_ADDRESS: usize = 8;

/// One connection's state, shared by its socket and its requests.
pub struct Receiving {
    /// Where a head's place is taken: `None` behind a trusted proxy (it sends whole heads for
    /// many clients).
    places: Option<(IpLimits, IpAddr)>,
    /// Heads are still counted: no longer once upgraded, so that a WebSocket's frames, each a
    /// read and a write, take no lock.
    watching: AtomicBool,
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    /// The place of a head being received.
    head: Option<IpSlot>,
    /// A request is in hand (its head arrived, its answer not begun).
    in_hand: bool,
    /// Upgraded to a WebSocket: no more heads.
    upgraded: bool,
}

impl Receiving {
    pub fn new(places: Option<(IpLimits, IpAddr)>) -> Arc<Receiving> {
        Arc::new(Receiving {
            watching: AtomicBool::new(places.is_some()),
            places,
            state: Mutex::default(),
        })
    }

    /// Bytes came in: if they begin a head, it needs a place.
    fn bytes_read(&self) -> io::Result<()> {
        let Some((places, address)) = &self.places else {
            return Ok(());
        };
        if !self.watching.load(Ordering::Acquire) {
            return Ok(());
        }
        let mut state = self.state.lock().expect("receiving lock");
        if state.upgraded || state.in_hand || state.head.is_some() {
            return Ok(());
        }
        match places.acquire(*address) {
            Some(place) => {
                state.head = Some(place);
                Ok(())
            }
            None => {
                metrics::counter!("jungle_heads_refused_total").increment(1);
                Err(io::Error::other(
                    "too many requests being sent from this address at once",
                ))
            }
        }
    }

    fn bytes_written(&self) {
        if self.watching.load(Ordering::Acquire) {
            self.state.lock().expect("receiving lock").in_hand = false;
        }
    }

    /// hyper has the whole head: its place is free.
    pub fn head_arrived(&self) {
        let mut state = self.state.lock().expect("receiving lock");
        state.head = None;
        state.in_hand = true;
    }

    /// The connection becomes a WebSocket.
    pub fn upgraded(&self) {
        let mut state = self.state.lock().expect("receiving lock");
        state.head = None;
        state.upgraded = true;
        self.watching.store(false, Ordering::Release);
    }
}

/// A socket whose heads are counted by its [`Receiving`].
pub struct HeadWatched<S> {
    inner: S,
    receiving: Arc<Receiving>,
}

impl<S> HeadWatched<S> {
    pub fn new(inner: S, receiving: Arc<Receiving>) -> HeadWatched<S> {
        HeadWatched { inner, receiving }
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for HeadWatched<S> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        let read = Pin::new(&mut this.inner).poll_read(cx, buf);
        if let Poll::Ready(Ok(())) = read {
            if buf.filled().len() > before {
                this.receiving.bytes_read()?;
            }
        }
        read
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for HeadWatched<S> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let written = Pin::new(&mut this.inner).poll_write(cx, data);
        if let Poll::Ready(Ok(n)) = written {
            if n > 0 {
                this.receiving.bytes_written();
            }
        }
        written
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let written = Pin::new(&mut this.inner).poll_write_vectored(cx, data);
        if let Poll::Ready(Ok(n)) = written {
            if n > 0 {
                this.receiving.bytes_written();
            }
        }
        written
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    fn watched(
        places: &IpLimits,
    ) -> (
        HeadWatched<tokio::io::DuplexStream>,
        Arc<Receiving>,
        tokio::io::DuplexStream,
    ) {
        let (ours, theirs) = tokio::io::duplex(1024);
        let receiving = Receiving::new(Some((places.clone(), IpAddr::from([10, 0, 0, 1]))));
        (HeadWatched::new(ours, receiving.clone()), receiving, theirs)
    }

    #[tokio::test]
    async fn heads_begun_and_not_finished_are_capped_per_address() {
        let places = IpLimits::new(2);
        let mut held = Vec::new();
        for _ in 0..2 {
            let (mut ours, receiving, mut theirs) = watched(&places);
            theirs.write_all(b"GET / HT").await.unwrap();
            let mut buf = [0u8; 64];
            assert!(ours.read(&mut buf).await.is_ok());
            held.push((ours, receiving, theirs));
        }
        // A third head from the address is refused as it begins.
        let (mut third, _, mut theirs) = watched(&places);
        theirs.write_all(b"GET / HT").await.unwrap();
        let mut buf = [0u8; 64];
        assert!(third.read(&mut buf).await.is_err());
        // One head arrives: its place is free for another.
        held[0].1.head_arrived();
        let (mut fourth, _, mut theirs) = watched(&places);
        theirs.write_all(b"GET / HT").await.unwrap();
        assert!(fourth.read(&mut buf).await.is_ok());
    }

    #[tokio::test]
    async fn a_request_in_hand_and_a_websocket_hold_no_place() {
        let places = IpLimits::new(1);
        let (mut ours, receiving, mut theirs) = watched(&places);
        let mut buf = [0u8; 64];
        theirs.write_all(b"POST / HTTP/1.1\r\n\r\n").await.unwrap();
        assert!(ours.read(&mut buf).await.unwrap() > 0);
        receiving.head_arrived();
        // Body bytes while the request is in hand take nothing.
        theirs.write_all(b"body").await.unwrap();
        assert!(ours.read(&mut buf).await.unwrap() > 0);
        let (mut other, _, mut other_peer) = watched(&places);
        other_peer.write_all(b"GET").await.unwrap();
        assert!(other.read(&mut buf).await.is_ok(), "the place is free");
        drop(other);
        // The answer goes out; the next request's head takes the place again.
        ours.write_all(b"HTTP/1.1 101\r\n\r\n").await.unwrap();
        receiving.upgraded();
        // Upgraded: frames come and go and take nothing.
        theirs.write_all(b"frame").await.unwrap();
        assert!(ours.read(&mut buf).await.unwrap() > 0);
        ours.write_all(b"frame").await.unwrap();
        theirs.write_all(b"frame").await.unwrap();
        assert!(ours.read(&mut buf).await.unwrap() > 0);
        let (mut another, _, mut another_peer) = watched(&places);
        another_peer.write_all(b"GET").await.unwrap();
        assert!(another.read(&mut buf).await.is_ok());
    }
}
