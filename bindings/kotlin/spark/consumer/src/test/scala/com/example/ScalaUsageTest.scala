package com.example

import io.github.samekey.{Samekey, SamekeyException, Scheme, UlidDeriver}
import io.github.samekey.spark.SamekeyExtensions
import java.sql.Timestamp
import java.time.Instant
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.functions.{call_function, col, lit}
import org.junit.jupiter.api.Assertions.{assertEquals, assertThrows}
import org.junit.jupiter.api.Test
import scala.util.Using

/** samekey from Scala: the Java facade, and the Spark SQL functions from Scala's DataFrame API. */
class ScalaUsageTest {
  private val published = Instant.parse("2024-05-01T12:00:00Z")

  @Test def javaFacadeFromScala(): Unit = {
    val id = Samekey.deriveUlid(published, "hello-world", "en")
    assertEquals(published, id.getTimestamp)
    Using.resource(new UlidDeriver("posts", Scheme.V2)) { posts =>
      val ids = posts.deriveMany(java.util.List.of(published), java.util.List.of(java.util.List.of("hello-world"), java.util.List.of("en")))
      assertEquals(posts.derive(published, "hello-world", "en"), ids.get(0))
    }
    val refused = assertThrows(classOf[SamekeyException], () => { Samekey.deriveUlid(published, "\uD800"); () })
    assertEquals("invalid_string", refused.getCode)
  }

  @Test def sparkFunctionsFromScala(): Unit = {
    val spark = SparkSession.builder()
      .master("local[2]")
      .config("spark.sql.extensions", classOf[SamekeyExtensions].getName)
      .config("spark.ui.enabled", "false")
      .getOrCreate()
    try {
      import spark.implicits._
      val posts = Seq(("hello-world", "en", Timestamp.from(published)), ("second", "fr", Timestamp.from(published.plusMillis(1))))
        .toDF("slug", "lang", "published_at")
      val ids = posts
        .select(call_function("samekey_ulid", lit("v1"), col("published_at"), lit("posts"), col("slug"), col("lang")))
        .as[String].collect().toSeq
      val expected = Using.resource(new UlidDeriver("posts")) { d =>
        Seq(d.derive(published, "hello-world", "en"), d.derive(published.plusMillis(1), "second", "fr")).map(_.getText)
      }
      assertEquals(expected, ids)
      posts.createOrReplaceTempView("posts")
      val sql = spark.sql("SELECT samekey_ulid('v1', published_at, 'posts', slug, lang) FROM posts").as[String].collect().toSeq
      assertEquals(expected, sql)
    } finally spark.stop()
  }
}
