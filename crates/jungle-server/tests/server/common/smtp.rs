//! A mail sink for tests: an SMTP server on 127.0.0.1:0 that accepts every mail and keeps it.
//! Just enough of RFC 5321 for a client that sends one mail a connection.

use std::sync::{Arc, Mutex};

use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpListener;

/// One mail as received: its recipients and its text (headers and body, soft line breaks of
/// quoted-printable undone).
#[derive(Clone, Debug)]
pub struct Mail {
    pub to: Vec<String>,
    pub text: String,
}

#[derive(Clone, Default)]
pub struct SmtpSink {
    pub url: String,
    mails: Arc<Mutex<Vec<Mail>>>,
}

impl SmtpSink {
    pub async fn start() -> SmtpSink {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let sink = SmtpSink {
            url: format!("smtp://{}", listener.local_addr().expect("addr")),
            mails: Default::default(),
        };
        let mails = sink.mails.clone();
        tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                let mails = mails.clone();
                tokio::spawn(async move {
                    let (read, mut write) = stream.into_split();
                    let mut lines = BufReader::new(read).lines();
                    let _ = write.write_all(b"220 sink\r\n").await;
                    let mut to = Vec::new();
                    while let Ok(Some(line)) = lines.next_line().await {
                        let verb = line.get(..4).unwrap_or("").to_ascii_uppercase();
                        let reply: &[u8] = match verb.as_str() {
                            "EHLO" | "HELO" => b"250 sink\r\n",
                            "RCPT" => {
                                to.push(line[8..].trim().trim_matches(['<', '>']).to_owned());
                                b"250 ok\r\n"
                            }
                            "DATA" => {
                                let _ = write.write_all(b"354 go on\r\n").await;
                                let mut text = String::new();
                                while let Ok(Some(line)) = lines.next_line().await {
                                    if line == "." {
                                        break;
                                    }
                                    text.push_str(&line);
                                    text.push('\n');
                                }
                                let text = if text.contains("quoted-printable") {
                                    unquote(&text)
                                } else {
                                    text
                                };
                                mails.lock().unwrap().push(Mail {
                                    to: std::mem::take(&mut to),
                                    text,
                                });
                                b"250 kept\r\n"
                            }
                            "QUIT" => {
                                let _ = write.write_all(b"221 bye\r\n").await;
                                break;
                            }
                            _ => b"250 ok\r\n",
                        };
                        let _ = write.write_all(reply).await;
                    }
                });
            }
        });
        sink
    }

    pub fn mails(&self) -> Vec<Mail> {
        self.mails.lock().unwrap().clone()
    }

    /// Waits (up to the tests' wait) until `n` mails came; all of them.
    pub async fn wait_for(&self, n: usize) -> Vec<Mail> {
        let until = tokio::time::Instant::now() + super::WAIT;
        loop {
            let mails = self.mails();
            if mails.len() >= n {
                return mails;
            }
            assert!(tokio::time::Instant::now() < until, "{n} mails: {mails:?}");
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
    }
}

/// Undoes quoted-printable: soft line breaks and `=XX` bytes.
fn unquote(text: &str) -> String {
    let text = text.replace("=\n", "");
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], hex) {
            (b'=', Some(byte)) => {
                out.push(byte);
                i += 3;
            }
            (byte, _) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

impl Mail {
    /// The value of `name=` in the first link that has it.
    pub fn link_param(&self, path: &str, name: &str) -> Option<String> {
        let at = self.text.find(path)?;
        let rest = &self.text[at..];
        let key = format!("{name}=");
        let from = rest.find(&key)? + key.len();
        Some(
            rest[from..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric())
                .collect(),
        )
    }
}
