//! Concrete interpreter of the engine IR, used to replay witnesses. (Placeholder until it lands.)
