just ffi::build
