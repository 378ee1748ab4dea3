//! serde support for the value types: each serializes as its one canonical text form
//! (`Display`) and deserializes through its strict parser (`FromStr`).

/// Implements `Serialize`/`Deserialize` for a type through `Display`/`FromStr`.
macro_rules! text_serde {
    ($t:ty) => {
        #[cfg(feature = "serde")]
        impl serde::Serialize for $t {
            fn serialize<S: serde::Serializer>(
                &self,
                s: S,
            ) -> core::result::Result<S::Ok, S::Error> {
                s.collect_str(self)
            }
        }

        #[cfg(feature = "serde")]
        impl<'de> serde::Deserialize<'de> for $t {
            fn deserialize<D: serde::Deserializer<'de>>(
                d: D,
            ) -> core::result::Result<Self, D::Error> {
                let s = <alloc::borrow::Cow<'de, str> as serde::Deserialize>::deserialize(d)?;
                s.parse().map_err(serde::de::Error::custom)
            }
        }
    };
}
