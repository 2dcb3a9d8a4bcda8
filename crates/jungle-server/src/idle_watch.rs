//! A connection that moves no byte either way for [`SILENCE`] is closed, whatever it is doing:
//! sending a body, not reading its answer, or an upgraded socket gone quiet. Every state has
//! its own, shorter limit (the header timeout, the body deadline, WebSocket pings, the Bot API's
//! keep-alive lines); this is the floor under all of them, so no state that one of them
//! forgets can hold a connection's place for ever.
//!
//! It watches the socket itself: a read or write that is waiting also waits on a timer, and
//! any byte moved in either direction puts the timer back. The timer is only looked at while
//! someone waits on the socket, which is when a stalled peer could hold it.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::time::{Instant, Sleep};

/// Longer than the longest honest silence: a WebSocket is pinged every 10 s by default, a Bot
/// API stream writes a line every 7 s, and the longest request we compute (a whole game's
/// evaluation) is answered well within it.
pub const SILENCE: Duration = Duration::from_secs(60);

/// A socket closed by the watch after `silence` without a byte moved.
pub struct IdleWatched<S> {
    inner: S,
    silence: Duration,
    /// When a byte last moved, either way.
    last_moved: Instant,
    /// One timer for each direction: the reader and the writer may wait in different tasks (an
    /// upgraded socket split in two), and a timer wakes only the last task that polled it.
    read_timer: Pin<Box<Sleep>>,
    write_timer: Pin<Box<Sleep>>,
}

impl<S> IdleWatched<S> {
    pub fn new(inner: S, silence: Duration) -> IdleWatched<S> {
        let now = Instant::now();
        IdleWatched {
            inner,
            silence,
            last_moved: now,
            read_timer: Box::pin(tokio::time::sleep_until(now + silence)),
            write_timer: Box::pin(tokio::time::sleep_until(now + silence)),
        }
    }

    fn moved(&mut self) {
        self.last_moved = Instant::now();
    }

    /// Whether the silence has lasted too long, `timer` set to wake this task when it would.
    /// The timer is moved only when it fires early (bytes moved since it was set): moving it
    /// at every byte would take the timer wheel's lock once a frame on every socket.
    fn silent_too_long(
        timer: &mut Pin<Box<Sleep>>,
        last_moved: Instant,
        silence: Duration,
        cx: &mut Context<'_>,
    ) -> bool {
        if timer.as_mut().poll(cx).is_pending() {
            return false;
        }
        let deadline = last_moved + silence;
        if Instant::now() >= deadline {
            return true;
        }
        timer.as_mut().reset(deadline);
        timer.as_mut().poll(cx).is_ready()
    }
}

fn silent() -> io::Error {
    io::Error::new(io::ErrorKind::TimedOut, "no byte moved for too long")
}

impl<S: AsyncRead + Unpin> AsyncRead for IdleWatched<S> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        match Pin::new(&mut this.inner).poll_read(cx, buf) {
            Poll::Ready(Ok(())) => {
                if buf.filled().len() > before {
                    this.moved();
                }
                Poll::Ready(Ok(()))
            }
            Poll::Ready(Err(e)) => Poll::Ready(Err(e)),
            Poll::Pending => {
                let (last_moved, silence) = (this.last_moved, this.silence);
                if Self::silent_too_long(&mut this.read_timer, last_moved, silence, cx) {
                    return Poll::Ready(Err(silent()));
                }
                Poll::Pending
            }
        }
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for IdleWatched<S> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        match Pin::new(&mut this.inner).poll_write(cx, data) {
            Poll::Ready(Ok(written)) => {
                if written > 0 {
                    this.moved();
                }
                Poll::Ready(Ok(written))
            }
            Poll::Ready(Err(e)) => Poll::Ready(Err(e)),
            Poll::Pending => this.write_waits(cx).map(Err),
        }
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        match Pin::new(&mut this.inner).poll_write_vectored(cx, data) {
            Poll::Ready(Ok(written)) => {
                if written > 0 {
                    this.moved();
                }
                Poll::Ready(Ok(written))
            }
            Poll::Ready(Err(e)) => Poll::Ready(Err(e)),
            Poll::Pending => this.write_waits(cx).map(Err),
        }
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        match Pin::new(&mut this.inner).poll_flush(cx) {
            Poll::Pending => this.write_waits(cx).map(Err),
            done => done,
        }
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        match Pin::new(&mut this.inner).poll_shutdown(cx) {
            Poll::Pending => this.write_waits(cx).map(Err),
            done => done,
        }
    }
}

impl<S> IdleWatched<S> {
    /// A write that cannot go on: pending until the silence has lasted too long.
    fn write_waits(&mut self, cx: &mut Context<'_>) -> Poll<io::Error> {
        let (last_moved, silence) = (self.last_moved, self.silence);
        if Self::silent_too_long(&mut self.write_timer, last_moved, silence, cx) {
            Poll::Ready(silent())
        } else {
            Poll::Pending
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    #[tokio::test(start_paused = true)]
    async fn a_silent_peer_is_cut_off_after_the_silence() {
        let (ours, _theirs) = tokio::io::duplex(64);
        let mut watched = IdleWatched::new(ours, SILENCE);
        let started = Instant::now();
        let mut byte = [0u8; 1];
        let error = watched.read(&mut byte).await.unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::TimedOut);
        assert_eq!(started.elapsed(), SILENCE);
    }

    #[tokio::test(start_paused = true)]
    async fn a_peer_that_does_not_read_is_cut_off_too() {
        let (ours, _theirs) = tokio::io::duplex(64);
        let mut watched = IdleWatched::new(ours, SILENCE);
        // The pipe takes 64 bytes; the rest waits on a reader that never comes.
        let error = watched.write_all(&[7u8; 1000]).await.unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::TimedOut);
    }

    #[tokio::test(start_paused = true)]
    async fn bytes_either_way_keep_it_open() {
        let (ours, mut theirs) = tokio::io::duplex(64);
        let mut watched = IdleWatched::new(ours, SILENCE);
        let peer = tokio::spawn(async move {
            // A slow but living peer: a byte every 40 s, for 4 minutes, reading what it gets.
            let mut got = [0u8; 1];
            for _ in 0..6 {
                tokio::time::sleep(Duration::from_secs(40)).await;
                theirs.write_all(b"x").await.unwrap();
                theirs.read_exact(&mut got).await.unwrap();
            }
            theirs
        });
        let mut byte = [0u8; 1];
        for _ in 0..6 {
            watched.read_exact(&mut byte).await.unwrap();
            watched.write_all(b"y").await.unwrap();
        }
        let _theirs = peer.await.unwrap();
        // Then silence: cut off a silence after the last byte.
        let last = Instant::now();
        assert!(watched.read(&mut byte).await.is_err());
        assert_eq!(last.elapsed(), SILENCE);
    }

    #[tokio::test(start_paused = true)]
    async fn writing_counts_for_a_reader_that_waits() {
        // A stream the server writes to every 30 s while it waits to read: never cut off.
        let (ours, mut theirs) = tokio::io::duplex(1024);
        let watched = IdleWatched::new(ours, SILENCE);
        let (mut reader, mut writer) = tokio::io::split(watched);
        let reading = tokio::spawn(async move {
            let mut byte = [0u8; 1];
            reader.read(&mut byte).await
        });
        for _ in 0..5 {
            tokio::time::sleep(Duration::from_secs(30)).await;
            writer.write_all(b"\n").await.unwrap();
        }
        let mut lines = [0u8; 5];
        theirs.read_exact(&mut lines).await.unwrap();
        assert!(!reading.is_finished(), "the reader still waits after 150 s");
        // Once the writes stop the reader is cut off a silence after the last one.
        let read = reading.await.unwrap();
        assert_eq!(read.unwrap_err().kind(), io::ErrorKind::TimedOut);
    }
}
