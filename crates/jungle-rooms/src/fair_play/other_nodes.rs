//! Fair play's question to the other nodes: does one of their live games close the engine on
//! these positions? The cluster answers through [`PositionsElsewhere`]; with one node, none
//! does.

use std::sync::Arc;

use futures_util::future::BoxFuture;

use super::{Among, EngineClosed, Standing};

/// Fair play's question, asked of the other nodes' live games.
pub trait PositionsElsewhere: Send + Sync {
    fn standings<'a>(
        &'a self,
        positions: &'a [jungle_rules::Position],
        among: Among,
    ) -> BoxFuture<'a, Result<Vec<Standing>, EngineClosed>>;
}

/// Fair play's question to the other nodes: does one of their games close the engine on
/// these positions? With one node, none does.
#[derive(Clone)]
pub struct OtherNodes {
    elsewhere: Option<Arc<dyn PositionsElsewhere>>,
}

impl OtherNodes {
    pub fn new(elsewhere: Option<Arc<dyn PositionsElsewhere>>) -> OtherNodes {
        OtherNodes { elsewhere }
    }

    pub async fn standings(
        &self,
        positions: &[jungle_rules::Position],
        among: Among,
    ) -> Result<Vec<Standing>, EngineClosed> {
        match &self.elsewhere {
            None => Ok(vec![Standing::Open; positions.len()]),
            Some(elsewhere) => elsewhere.standings(positions, among).await,
        }
    }
}
