//! Core errors as JS errors whose `code` is the core's code; `index.js` turns them into
//! `SamekeyError`. Wrong JS types carry the code `TypeError` and become `TypeError`s.

pub type Result<T> = napi::Result<T, String>;

pub fn core(e: samekey::Error) -> napi::Error<String> {
    napi::Error::new(e.code().to_string(), e.to_string())
}

pub fn type_error(message: String) -> napi::Error<String> {
    napi::Error::new("TypeError".to_string(), message)
}

pub trait CoreResult<T> {
    fn js(self) -> Result<T>;
}

impl<T> CoreResult<T> for std::result::Result<T, samekey::Error> {
    fn js(self) -> Result<T> {
        self.map_err(core)
    }
}

impl<T> CoreResult<T> for std::result::Result<T, samekey_wire::WireError> {
    fn js(self) -> Result<T> {
        self.map_err(|e| match e {
            samekey_wire::WireError::Core(e) => core(e),
            samekey_wire::WireError::Malformed(m) => {
                type_error(format!("malformed packed request: {m}"))
            }
        })
    }
}
