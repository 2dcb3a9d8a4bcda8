//! Every route of the Bot and Board APIs, and the body bound they share: no request here
//! carries more than a token's description, a challenge or a chat line.

use axum::extract::DefaultBodyLimit;
use axum::routing::{delete, get, post};
use axum::Router;

use super::{
    account, actions, challenges, computer, event_stream, game_stream, seek, tokens, tournaments,
};
use crate::BotApiState;

/// The largest body any request here may carry.
pub const MAX_BODY: usize = 4 * 1024;

/// The routes, for a router whose state gives a [`BotApiState`].
pub fn routes<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    BotApiState: axum::extract::FromRef<S>,
{
    Router::new()
        .route("/api/tokens", post(tokens::create).get(tokens::list))
        .route("/api/tokens/{id}", delete(tokens::delete))
        .route("/api/bot/account/upgrade", post(account::upgrade))
        .route("/api/account", get(account::me))
        .route("/api/user/{username}", get(account::user))
        .route("/api/bot/online", get(account::online_bots))
        .route("/api/token/test", post(account::test_tokens))
        .route("/api/stream/event", get(event_stream::stream))
        .route("/api/challenge", get(challenges::mine))
        .route("/api/challenge/ai", post(computer::create))
        .route("/api/challenge/{who}", post(challenges::create))
        .route("/api/challenge/{who}/accept", post(challenges::accept))
        .route("/api/challenge/{who}/decline", post(challenges::decline))
        .route("/api/challenge/{who}/cancel", post(challenges::cancel))
        .route("/api/tournament/{id}/join", post(tournaments::join))
        .route("/api/tournament/{id}/withdraw", post(tournaments::withdraw))
        .route("/api/bot/game/stream/{id}", get(game_stream::bot))
        .route("/api/bot/game/{id}/move/{mv}", post(actions::bot_move))
        .route("/api/bot/game/{id}/resign", post(actions::bot_resign))
        .route("/api/bot/game/{id}/abort", post(actions::bot_abort))
        .route(
            "/api/bot/game/{id}/chat",
            post(actions::bot_chat).get(game_stream::bot_chat),
        )
        .route("/api/bot/game/{id}/draw/{answer}", post(actions::bot_draw))
        .route(
            "/api/bot/game/{id}/takeback/{answer}",
            post(actions::bot_takeback),
        )
        .route(
            "/api/bot/game/{id}/claim-victory",
            post(actions::bot_claim_victory),
        )
        // berserk's path ends with a slash.
        .route(
            "/api/bot/game/{id}/claim-victory/",
            post(actions::bot_claim_victory),
        )
        .route(
            "/api/bot/game/{id}/claim-draw",
            post(actions::bot_claim_draw),
        )
        .route("/api/board/seek", post(seek::seek))
        .route("/api/board/game/stream/{id}", get(game_stream::board))
        .route("/api/board/game/{id}/move/{mv}", post(actions::board_move))
        .route("/api/board/game/{id}/resign", post(actions::board_resign))
        .route("/api/board/game/{id}/abort", post(actions::board_abort))
        .route(
            "/api/board/game/{id}/chat",
            post(actions::board_chat).get(game_stream::board_chat),
        )
        .route(
            "/api/board/game/{id}/draw/{answer}",
            post(actions::board_draw),
        )
        .route(
            "/api/board/game/{id}/takeback/{answer}",
            post(actions::board_takeback),
        )
        .route(
            "/api/board/game/{id}/claim-victory",
            post(actions::board_claim_victory),
        )
        .route(
            "/api/board/game/{id}/claim-victory/",
            post(actions::board_claim_victory),
        )
        .route(
            "/api/board/game/{id}/claim-draw",
            post(actions::board_claim_draw),
        )
        .layer(DefaultBodyLimit::max(MAX_BODY))
}
