policy "cost-limit" {
  source            = "./cost-limit.sentinel"
  enforcement_level = "soft-mandatory"
}
