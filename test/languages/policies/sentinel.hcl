policy "restrict-regions" {
  source            = "./restrict-regions.sentinel"
  enforcement_level = "advisory"
}
