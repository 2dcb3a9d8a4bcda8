//! What each address holds at once (connections, request heads or bodies on their way), up
//! to a cap; IPv6 counted by /64, as the rate limits count.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

/// Counts what each address holds at once (connections, heads or bodies on their way), up to
/// a cap; whoever refuses counts the refusal in their own metric.
#[derive(Clone)]
pub struct IpLimits {
    max: usize,
    counts: Arc<Mutex<HashMap<IpAddr, usize>>>,
}

/// One connection's place in the count, given back on drop.
pub struct IpSlot {
    ip: IpAddr,
    counts: Arc<Mutex<HashMap<IpAddr, usize>>>,
}

impl IpLimits {
    pub fn new(max: usize) -> IpLimits {
        IpLimits {
            max,
            counts: Arc::default(),
        }
    }

    /// A place for a connection from `ip` (IPv6 counted by /64, like the rate limits).
    pub fn acquire(&self, ip: IpAddr) -> Option<IpSlot> {
        let ip = jungle_limits::address_key(ip);
        let mut counts = self.counts.lock().expect("ip limit lock");
        let count = counts.entry(ip).or_default();
        if *count >= self.max {
            return None;
        }
        *count += 1;
        Some(IpSlot {
            ip,
            counts: self.counts.clone(),
        })
    }
}

impl Drop for IpSlot {
    fn drop(&mut self) {
        let mut counts = self.counts.lock().expect("ip limit lock");
        if let Some(count) = counts.get_mut(&self.ip) {
            *count -= 1;
            if *count == 0 {
                counts.remove(&self.ip);
            }
        }
    }
}
