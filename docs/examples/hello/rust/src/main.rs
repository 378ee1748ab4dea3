use samekey::{derive_ulid, parse_rfc3339, Scheme};

fn main() -> Result<(), samekey::Error> {
    let published = parse_rfc3339("2024-05-01T12:00:00Z")?;
    let id = derive_ulid(Scheme::V1, published, "posts", &["hello-world", "en"], None)?;
    println!("{id}");
    Ok(())
}
